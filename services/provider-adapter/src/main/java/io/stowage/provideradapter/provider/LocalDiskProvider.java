package io.stowage.provideradapter.provider;

import io.stowage.events.DirectoryFingerprint;
import io.stowage.events.ProtectedRoots;
import io.stowage.provideradapter.domain.ReleaseProvider;
import io.stowage.provideradapter.domain.ReleaseResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Releases a local directory: re-checks that the path is absolute, normalised, reached through
 * no symlink, not protected, an existing directory whose {@link DirectoryFingerprint} equals the
 * gate's and holds no symlink nor special file (protected roots are also compared by their real
 * paths); then deletes it bottom-up with {@link SecureTreeDeleter}, which never follows a symlink,
 * not even one swapped in after the check, so nothing outside the directory is touched. Blocking I/O.
 */
public final class LocalDiskProvider implements ReleaseProvider {
    private final ProtectedRoots roots;

    /** @param roots {@code stowage.gate.protected-roots} */
    public LocalDiskProvider(ProtectedRoots roots) {
        this.roots = roots;
    }

    @Override
    public String name() {
        return "local";
    }

    @Override
    public ReleaseResult release(Path dir, String expectedFingerprint) {
        String problem = pathProblem(dir);
        if (problem != null) {
            return ReleaseResult.refused(problem + "; nothing deleted");
        }
        DirectoryFingerprint now;
        try {
            now = DirectoryFingerprint.of(dir);
        } catch (IOException e) {
            return ReleaseResult.refused("cannot list " + dir + ": " + e.getMessage() + "; nothing deleted");
        }
        if (now.symlinkCount() > 0) {
            return ReleaseResult.refused(dir + " holds " + now.symlinkCount() + " symlink(s); nothing deleted");
        }
        try {
            long special = specialEntries(dir);
            if (special > 0) {
                return ReleaseResult.refused(dir + " holds " + special + " special file(s) (FIFO, device or socket); "
                        + "nothing deleted");
            }
        } catch (IOException e) {
            return ReleaseResult.refused("cannot list " + dir + ": " + e.getMessage() + "; nothing deleted");
        }
        if (!now.sha256().equals(expectedFingerprint)) {
            return ReleaseResult.refused(dir + " changed since the gate passed (fingerprint differs); nothing deleted");
        }
        return delete(dir, now);
    }

    private String pathProblem(Path dir) {
        if (!dir.isAbsolute() || !dir.normalize().equals(dir)) {
            return "path is not absolute and normalised: " + dir;
        }
        if (roots.protects(dir)) {
            return dir + " is / or a protected root or an ancestor of one";
        }
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return "already gone: " + dir + " does not exist";
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return dir + " is not a directory (a symlink or a file)";
        }
        try {
            Path real = dir.toRealPath();
            if (!real.equals(dir)) {
                return dir + " goes through a symlink to " + real;
            }
            if (withRealPaths().protects(real)) {
                return dir + " is a protected root or an ancestor of one by its real path";
            }
        } catch (IOException e) {
            return "cannot resolve " + dir + ": " + e.getMessage();
        }
        return null;
    }

    private static ReleaseResult delete(Path dir, DirectoryFingerprint fingerprint) {
        try {
            SecureTreeDeleter.delete(dir);
        } catch (IOException e) {
            return ReleaseResult.refused("deletion of " + dir + " failed (partially released unless it says 0 entries): "
                    + e.getMessage());
        }
        return ReleaseResult.released(fingerprint.fileCount(), fingerprint.totalBytes());
    }

    /** @return the number of entries under {@code dir} that are neither regular file, directory nor symlink (FIFOs, devices, sockets) */
    private static long specialEntries(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            long count = 0;
            for (Path path : (Iterable<Path>) walk::iterator) {
                BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (attrs.isOther()) {
                    count++;
                }
            }
            return count;
        }
    }

    /** @return the configured roots plus the real path of each that exists, so a root named through a symlink still counts */
    private ProtectedRoots withRealPaths() {
        List<Path> all = new ArrayList<>(roots.roots());
        for (Path root : roots.roots()) {
            try {
                all.add(root.toRealPath());
            } catch (IOException e) {
                // a root that does not exist has no other name
            }
        }
        return new ProtectedRoots(all);
    }
}
