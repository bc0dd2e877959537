package io.stowage.provideradapter.release;

import io.stowage.events.DirectoryFingerprint;
import io.stowage.events.DirectoryInventory;
import io.stowage.events.ReleaseTargetPolicy;
import io.stowage.provideradapter.domain.ApprovedRelease;
import io.stowage.provideradapter.domain.ReleaseProvider;
import io.stowage.provideradapter.domain.ReleaseResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Releases a local directory: re-checks the path against the {@link ReleaseTargetPolicy} (as given,
 * by its real path, against the roots' real paths and file keys), that it is an existing directory
 * reached through no symlink, then immediately before deleting takes its {@link DirectoryInventory}
 * again (hashing every file) between two {@link DirectoryFingerprint}s: any symlink or special file,
 * any file added, changed or removed since the gate (named in the refusal), or any other change of
 * the tree refuses with nothing deleted. Then it deletes exactly that directory bottom-up with
 * {@link SecureTreeDeleter}, which never follows a symlink, not even one swapped in after the check.
 * Blocking I/O.
 */
public final class LocalDiskProvider implements ReleaseProvider {
    /** Differences named in one refusal before "and N more". */
    static final int MAX_NAMED = 10;

    private final ReleaseTargetPolicy policy;

    /** @param policy {@code stowage.gate.protected-roots}, {@code stowage.provider-adapter.volume-roots} and the homes */
    public LocalDiskProvider(ReleaseTargetPolicy policy) {
        this.policy = policy;
    }

    @Override
    public String name() {
        return "local";
    }

    /** Refuses: a decision without the gate's inventory cannot be re-checked by content. */
    @Override
    public ReleaseResult release(Path dir, String expectedFingerprint) {
        return ReleaseResult.refused("no inventory digest to re-check " + dir + " against; nothing deleted");
    }

    @Override
    public ReleaseResult release(ApprovedRelease approved) {
        Path dir = approved.dir();
        String problem = pathProblem(dir);
        if (problem != null) {
            return ReleaseResult.refused(problem + "; nothing deleted");
        }
        DirectoryFingerprint before;
        DirectoryInventory now;
        DirectoryFingerprint after;
        try {
            before = DirectoryFingerprint.of(dir);
            now = DirectoryInventory.take(dir);
            after = DirectoryFingerprint.of(dir);
        } catch (IOException e) {
            return ReleaseResult.refused("cannot inventory " + dir + ": " + e.getMessage() + "; nothing deleted");
        }
        if (!now.symlinks().isEmpty()) {
            return ReleaseResult.refused(dir + " holds " + now.symlinks().size() + " symlink(s): "
                    + named(now.symlinks()) + "; nothing deleted");
        }
        if (!now.specials().isEmpty()) {
            return ReleaseResult.refused(dir + " holds " + now.specials().size()
                    + " special file(s) (FIFO, device or socket): " + named(now.specials()) + "; nothing deleted");
        }
        if (!now.digest().equals(approved.inventoryDigest())) {
            List<String> differences = now.differencesFrom(approved.inventory());
            return ReleaseResult.refused(dir + " changed since the gate passed (inventory " + now.digest()
                    + " is not the approved " + approved.inventoryDigest() + "): "
                    + (differences.isEmpty() ? "the approved inventory lists other files" : named(differences))
                    + "; nothing deleted");
        }
        if (!before.sha256().equals(after.sha256()) || !after.sha256().equals(approved.fingerprint())) {
            return ReleaseResult.refused(dir + " changed since the gate passed (same files and contents, but a "
                    + "directory, modification time or entry differs: fingerprint " + after.sha256() + " is not the"
                    + " approved " + approved.fingerprint() + "); nothing deleted");
        }
        return delete(dir, now);
    }

    private String pathProblem(Path dir) {
        ReleaseTargetPolicy aliased = policy.withAliases(LocalDiskProvider::realPath);
        Optional<ReleaseTargetPolicy.Refusal> refusal = aliased.refusal(dir);
        if (refusal.isPresent()) {
            return refusal.get().code() + ": " + refusal.get().detail();
        }
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return "already gone: " + dir + " does not exist";
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return dir + " is not a directory (a symlink, a FIFO or a file)";
        }
        try {
            Path real = dir.toRealPath();
            if (!real.equals(dir)) {
                return "symlink-in-path: " + dir + " goes through a symlink to " + real;
            }
            Optional<ReleaseTargetPolicy.Refusal> byReal = aliased.refusal(real);
            if (byReal.isPresent()) {
                return byReal.get().code() + ": " + byReal.get().detail() + " (by its real path)";
            }
            Object key = fileKey(dir);
            for (Path root : roots(aliased)) {
                if (key != null && key.equals(fileKey(root))) {
                    return "root-by-another-path: " + dir + " is " + root + " by another path";
                }
            }
        } catch (IOException e) {
            return "cannot resolve " + dir + ": " + e.getMessage();
        }
        return null;
    }

    private static ReleaseResult delete(Path dir, DirectoryInventory inventory) {
        try {
            SecureTreeDeleter.delete(dir);
        } catch (IOException e) {
            return ReleaseResult.refused("deletion of " + dir + " failed (partially released unless it says 0 entries): "
                    + e.getMessage());
        }
        return ReleaseResult.released(inventory.fileCount(), inventory.totalBytes());
    }

    private static String named(List<String> items) {
        String line = String.join(", ", items.stream().limit(MAX_NAMED).toList());
        return items.size() > MAX_NAMED ? line + " and " + (items.size() - MAX_NAMED) + " more" : line;
    }

    private static List<Path> roots(ReleaseTargetPolicy policy) {
        List<Path> all = new ArrayList<>(policy.volumeRoots());
        all.addAll(policy.protectedRoots());
        all.addAll(policy.homes());
        return all.stream().filter(Objects::nonNull).toList();
    }

    private static Object fileKey(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    private static Optional<Path> realPath(Path root) {
        try {
            return Optional.of(root.toRealPath());
        } catch (IOException e) {
            return Optional.empty(); // a root that does not exist has no other name
        }
    }
}
