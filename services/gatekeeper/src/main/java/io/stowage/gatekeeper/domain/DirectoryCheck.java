package io.stowage.gatekeeper.domain;

import io.stowage.events.DirectoryInventory;
import io.stowage.events.InventoryEntry;
import io.stowage.events.ReleaseTargetPolicy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Condition 5 for a directory P: P passes the {@link ReleaseTargetPolicy} (by the path as given and
 * by its real path, against the roots' configured and real paths and their file keys), is an existing
 * directory reached through no symlink, holds no symlink or special file, and every regular file
 * under it is in an asset's manifest with equal bytes and a SHA-256 computed now. The hashed files
 * form P's {@link DirectoryInventory}.
 */
final class DirectoryCheck {
    /** What was seen under P: its inventory (null when P was not listed) and fingerprint after hashing. */
    record Tally(DirectoryInventory inventory, String fingerprint) {
    }

    private final LocalTree tree;
    private final ReleaseTargetPolicy policy;
    private final Findings findings;

    DirectoryCheck(LocalTree tree, ReleaseTargetPolicy policy, Findings findings) {
        this.tree = tree;
        this.policy = policy;
        this.findings = findings;
    }

    /**
     * @return the tally (inventory and fingerprint null when P itself failed and was not listed); P is
     *         fingerprinted before and after hashing, and a difference is a failure
     */
    Tally check(Path dir, List<AccountedFiles> accounted) {
        if (!acceptable(dir)) {
            return new Tally(null, null);
        }
        try {
            String before = tree.fingerprint(dir);
            List<InventoryEntry> hashed = account(dir, tree.list(dir), accounted);
            String after = tree.fingerprint(dir);
            if (!before.equals(after)) {
                findings.fail(GateCheck.CHANGED_DURING_GATE, dir.toString());
            }
            DirectoryInventory inventory = DirectoryInventory.of(hashed);
            findings.note(5, dir + ": " + inventory.fileCount() + " file(s), " + inventory.totalBytes()
                    + " bytes, each a verified object or shard member with the same bytes and SHA-256; inventory "
                    + inventory.digest());
            return new Tally(inventory, after);
        } catch (IOException e) {
            findings.fail(GateCheck.UNREADABLE, dir + ": " + e.getMessage());
            return new Tally(null, null);
        }
    }

    private List<InventoryEntry> account(Path dir, List<LocalTree.Entry> entries, List<AccountedFiles> accounted) {
        List<InventoryEntry> hashed = new ArrayList<>();
        for (LocalTree.Entry entry : entries) {
            String name = dir.relativize(entry.path()).toString().replace('\\', '/');
            switch (entry.type()) {
                case SYMLINK -> findings.fail(GateCheck.SYMLINK, name);
                case OTHER, MISSING -> findings.fail(GateCheck.SPECIAL_FILE, name);
                case DIRECTORY -> { }
                case FILE -> account(entry, name, accounted).ifPresent(hashed::add);
            }
        }
        return hashed;
    }

    private boolean acceptable(Path dir) {
        ReleaseTargetPolicy aliased = policy.withAliases(this::realPathOf);
        if (refused(dir, aliased, "")) {
            return false;
        }
        if (tree.typeOf(dir) != LocalTree.EntryType.DIRECTORY) {
            findings.fail(GateCheck.NOT_A_DIRECTORY, dir + " is " + tree.typeOf(dir).name().toLowerCase());
            return false;
        }
        try {
            Path real = tree.realPath(dir);
            if (!real.equals(dir)) {
                findings.fail(GateCheck.SYMLINK_IN_PATH, dir + " resolves to " + real);
                return false;
            }
            if (refused(real, aliased, " (by its real path)")) {
                return false;
            }
            Object key = tree.fileKey(dir);
            for (Path root : rootsOf(aliased)) {
                if (key != null && key.equals(tree.fileKey(root))) {
                    findings.fail(GateCheck.ROOT_BY_ANOTHER_PATH, dir + " is " + root + " by another path");
                    return false;
                }
            }
        } catch (IOException e) {
            findings.fail(GateCheck.UNREADABLE, dir + ": " + e.getMessage());
            return false;
        }
        return true;
    }

    private boolean refused(Path dir, ReleaseTargetPolicy rule, String suffix) {
        Optional<ReleaseTargetPolicy.Refusal> refusal = rule.refusal(dir);
        // the check's label already says what is wrong; name the path (and the roots, when outside them)
        refusal.ifPresent(r -> findings.fail(GateCheck.byCode(r.code()),
                ("outside-volume-roots".equals(r.code()) ? r.detail() : dir.toString()) + suffix));
        return refusal.isPresent();
    }

    private Optional<Path> realPathOf(Path root) {
        try {
            return Optional.of(tree.realPath(root));
        } catch (IOException e) {
            return Optional.empty(); // a root that does not exist has no other name
        }
    }

    private static List<Path> rootsOf(ReleaseTargetPolicy policy) {
        List<Path> all = new ArrayList<>(policy.volumeRoots());
        all.addAll(policy.protectedRoots());
        all.addAll(policy.homes());
        return all;
    }

    private Optional<InventoryEntry> account(LocalTree.Entry file, String name, List<AccountedFiles> accounted) {
        List<AccountedFiles.Accounted> candidates = accounted.stream().map(a -> a.entryFor(file.path()))
                .filter(Objects::nonNull).toList();
        if (candidates.isEmpty()) {
            findings.fail(GateCheck.UNACCOUNTED_FILE, name);
            return Optional.empty();
        }
        if (candidates.stream().noneMatch(c -> c.entry().bytes() == file.bytes())) {
            findings.fail(GateCheck.CHANGED_FILE, name);
            return Optional.empty();
        }
        try {
            String sha256 = tree.sha256(file.path());
            Optional<AccountedFiles.Accounted> match = candidates.stream()
                    .filter(c -> c.entry().bytes() == file.bytes() && sha256.equals(c.entry().sha256())).findFirst();
            if (match.isEmpty()) {
                findings.fail(GateCheck.CHANGED_FILE, name);
                return Optional.empty();
            }
            match.get().evidence().forEach(id -> findings.prove(5, id));
            return Optional.of(new InventoryEntry(name, file.bytes(), sha256));
        } catch (LocalTree.NotRegularFileException e) {
            findings.fail(GateCheck.SPECIAL_FILE, name); // swapped in since the listing
            return Optional.empty();
        } catch (IOException e) {
            findings.fail(GateCheck.UNREADABLE, name + ": " + e.getMessage());
            return Optional.empty();
        }
    }
}
