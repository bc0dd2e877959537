package io.stowage.provideradapter.release;

import io.stowage.events.DirectoryFingerprint;
import io.stowage.events.DirectoryInventory;
import io.stowage.events.ReleaseTargetPolicy;
import io.stowage.events.InventoryEntry;
import io.stowage.provideradapter.domain.ApprovedRelease;
import io.stowage.provideradapter.domain.ReleaseProvider;
import io.stowage.provideradapter.domain.ReleaseResult;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Releases a local directory in two steps. {@link #refusal}: re-checks the path against the
 * {@link ReleaseTargetPolicy} (as given, by its real path, against the roots' real paths and file keys), that it is
 * an existing directory reached through no symlink and holding no mount point ({@link MountGuard}) nor any symlink
 * or special file (FIFO, socket, device), and that its
 * {@link DirectoryFingerprint} (every entry's type, path, bytes and modification time; no content read) is the one
 * the gate approved: any entry added, removed, resized or touched since the gate refuses with nothing touched (the
 * differences are then named from a hashed inventory). {@link #finish}: renames the directory to its hidden sibling
 * (same parent, so one atomic rename on one filesystem; writers that open the old path no longer reach it), checks
 * for mount points again, and there {@link ApprovedFileDeleter} reads every file once: all of them match the approved
 * inventory (path, bytes, SHA-256) and are deleted, or nothing is (a file rewritten with its size and modification
 * time kept is found by its hash here), and the renamed directory is moved back to the original path, or left under
 * its hidden name when the original path exists again; the result names each kept entry. The content is thus read
 * once by the provider-adapter, after the rename: that read is what proves what is deleted. Blocking I/O.
 */
public final class LocalDiskProvider implements ReleaseProvider {
    /** Differences named in one refusal before "and N more". */
    static final int MAX_NAMED = 10;

    private final ReleaseTargetPolicy policy;
    private final MountGuard mounts;

    /** @param policy {@code stowage.gate.protected-roots}, {@code stowage.provider-adapter.volume-roots} and the homes */
    public LocalDiskProvider(ReleaseTargetPolicy policy) {
        this(policy, MountGuard.system());
    }

    /** @param mounts how mount points are found (tests inject device ids and mount tables) */
    public LocalDiskProvider(ReleaseTargetPolicy policy, MountGuard mounts) {
        this.policy = policy;
        this.mounts = mounts;
    }

    @Override
    public String name() {
        return "local";
    }

    @Override
    public Optional<String> refusal(ApprovedRelease approved) {
        Path dir = approved.dir();
        String problem = pathProblem(dir);
        if (problem == null) {
            problem = mounts.problem(dir).orElse(null);
        }
        if (problem == null) {
            problem = contentProblem(approved);
        }
        return Optional.ofNullable(problem).map(p -> p + "; nothing deleted");
    }

    @Override
    public ReleaseResult finish(ApprovedRelease approved, Path aside) {
        Path dir = approved.dir();
        if (!Files.exists(aside, LinkOption.NOFOLLOW_LINKS)) {
            if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                return released(approved); // deleted before a restart: nothing is left under either name
            }
            Optional<String> refused = refusal(approved);
            if (refused.isPresent()) {
                return notRenamed(approved, refused.get());
            }
            try {
                Files.move(dir, aside, StandardCopyOption.ATOMIC_MOVE);
                fsync(dir.getParent());
            } catch (IOException e) {
                return ReleaseResult.refused("cannot rename " + dir + " aside to " + aside + ": " + e
                        + "; nothing deleted");
            }
        }
        if (!Files.isDirectory(aside, LinkOption.NOFOLLOW_LINKS)) {
            return ReleaseResult.refused(aside + " is not a directory; nothing deleted");
        }
        Optional<String> mounted = mounts.problem(aside);
        if (mounted.isPresent()) {
            return ReleaseResult.refused(mounted.get() + "; nothing deleted, " + putBack(aside, dir));
        }
        return sweep(approved, aside);
    }

    private ReleaseResult sweep(ApprovedRelease approved, Path aside) {
        Path dir = approved.dir();
        Map<String, InventoryEntry> byPath = new HashMap<>();
        approved.inventory().forEach(e -> byPath.put(e.path(), e));
        ApprovedFileDeleter.Sweep sweep;
        try {
            sweep = ApprovedFileDeleter.sweep(aside, byPath);
            fsync(aside.getParent());
        } catch (IOException e) {
            return ReleaseResult.refused("deletion under " + aside + " (renamed from " + dir + ") stopped: " + e
                    + "; the rest of it is there, " + putBack(aside, dir));
        }
        if (sweep.kept().isEmpty()) {
            return released(approved);
        }
        List<InventoryEntry> gone = approved.inventory().stream().filter(e -> !sweep.present().contains(e.path()))
                .toList();
        if (sweep.deletedNone()) {
            return ReleaseResult.refused(dir + " changed since the gate passed (found once renamed aside): "
                    + named(sweep.kept()) + "; nothing deleted" + (gone.isEmpty() ? "" : " by this pass ("
                    + gone.size() + " of " + approved.inventory().size() + " approved file(s), "
                    + gone.stream().mapToLong(InventoryEntry::bytes).sum() + " bytes, were already gone: deleted before"
                    + " a restart, or by someone else)") + ", " + putBack(aside, dir));
        }
        return ReleaseResult.refused("partially released: " + gone.size() + " of " + approved.inventory().size()
                + " approved file(s) deleted (" + gone.stream().mapToLong(InventoryEntry::bytes).sum() + " bytes); kept "
                + sweep.kept().size() + " entr(ies) added or changed since the gate: " + named(sweep.kept()) + "; "
                + putBack(aside, dir));
    }

    /** The directory is still under its own name but is not what the gate approved (or what is left of it). */
    private static ReleaseResult notRenamed(ApprovedRelease approved, String refusal) {
        return ReleaseResult.refused(approved.dir() + " was not renamed aside: " + refusal);
    }

    /** Moves what is left back to the original path when that is free, else leaves it under the hidden name. */
    private static String putBack(Path aside, Path dir) {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return "left at " + aside + " because " + dir + " exists again";
        }
        try {
            Files.move(aside, dir, StandardCopyOption.ATOMIC_MOVE);
            fsync(dir.getParent());
            return "moved back to " + dir;
        } catch (IOException e) {
            return "left at " + aside + " (cannot move it back to " + dir + ": " + e + ")";
        }
    }

    private static ReleaseResult released(ApprovedRelease approved) {
        return ReleaseResult.released(approved.inventory().size(),
                approved.inventory().stream().mapToLong(InventoryEntry::bytes).sum());
    }

    private static void fsync(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    /**
     * @return why the directory is not what the gate approved, judged by its fingerprint (no content read); only
     *         when it differs is the directory hashed, to name the differences; null when the fingerprint matches
     */
    private String contentProblem(ApprovedRelease approved) {
        Path dir = approved.dir();
        DirectoryFingerprint now;
        try {
            now = DirectoryFingerprint.of(dir);
        } catch (IOException e) {
            return "cannot inventory " + dir + ": " + e.getMessage();
        }
        if (!now.symlinks().isEmpty()) {
            return dir + " holds " + now.symlinks().size() + " symlink(s): " + named(now.symlinks());
        }
        if (!now.specials().isEmpty()) {
            return dir + " holds " + now.specials().size() + " special file(s) (FIFO, device or socket): "
                    + named(now.specials());
        }
        if (now.sha256().equals(approved.fingerprint())) {
            return null;
        }
        DirectoryInventory inventory;
        try {
            inventory = DirectoryInventory.take(dir);
        } catch (IOException e) {
            return dir + " changed since the gate passed (fingerprint " + now.sha256() + " is not the approved "
                    + approved.fingerprint() + ") and cannot be inventoried: " + e.getMessage();
        }
        if (!inventory.digest().equals(approved.inventoryDigest())) {
            List<String> differences = inventory.differencesFrom(approved.inventory());
            return dir + " changed since the gate passed (inventory " + inventory.digest() + " is not the approved "
                    + approved.inventoryDigest() + "): "
                    + (differences.isEmpty() ? "the approved inventory lists other files" : named(differences));
        }
        return dir + " changed since the gate passed (same files and contents, but a directory, modification"
                + " time or entry differs: fingerprint " + now.sha256() + " is not the approved "
                + approved.fingerprint() + ")";
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
