package io.stowage.provideradapter.provider;

import io.stowage.events.DirectoryFingerprint;
import io.stowage.events.ProtectedRoots;
import io.stowage.provideradapter.domain.ReleaseProvider;
import io.stowage.provideradapter.domain.ReleaseResult;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Releases a local directory: re-checks that the path is absolute, normalised, reached through
 * no symlink, not protected, an existing directory whose {@link DirectoryFingerprint} equals the
 * gate's and holds no symlink; then deletes it bottom-up with {@link Files#walkFileTree}, which
 * never follows symlinks, so nothing outside the directory is touched. Blocking I/O.
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
            if (!real.equals(dir) || roots.protects(real)) {
                return dir + " goes through a symlink to " + real;
            }
        } catch (IOException e) {
            return "cannot resolve " + dir + ": " + e.getMessage();
        }
        return null;
    }

    private static ReleaseResult delete(Path dir, DirectoryFingerprint fingerprint) {
        Deleter deleter = new Deleter();
        try {
            Files.walkFileTree(dir, deleter);
        } catch (IOException e) {
            return ReleaseResult.refused("deletion of " + dir + " failed after " + deleter.deleted
                    + " entries were deleted (partially released): " + e);
        }
        return ReleaseResult.released(fingerprint.fileCount(), fingerprint.totalBytes());
    }

    /** Deletes files (and links, as links) before their directory; stops at the first error. */
    private static final class Deleter extends SimpleFileVisitor<Path> {
        int deleted;

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
            Files.delete(file);
            deleted++;
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path directory, IOException failure) throws IOException {
            if (failure != null) {
                throw failure;
            }
            Files.delete(directory);
            deleted++;
            return FileVisitResult.CONTINUE;
        }
    }
}
