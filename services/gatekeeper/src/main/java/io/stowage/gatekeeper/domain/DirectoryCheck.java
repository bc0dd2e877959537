package io.stowage.gatekeeper.domain;

import io.stowage.events.ProtectedRoots;
import io.stowage.events.manifest.MemberEntry;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Condition 5 for a directory P: P is an existing directory reached through no symlink, is not
 * protected (by a root's configured or real path), holds no symlink or special file, and every regular file under it is in an asset's
 * manifest with equal bytes and a SHA-256 computed now.
 */
final class DirectoryCheck {
    /** Regular files seen under P: count, total bytes, and P's fingerprint after they were hashed. */
    record Tally(int files, long bytes, String fingerprint) {
    }

    private final LocalTree tree;
    private final ProtectedRoots roots;
    private final Findings findings;

    DirectoryCheck(LocalTree tree, ProtectedRoots roots, Findings findings) {
        this.tree = tree;
        this.roots = roots;
        this.findings = findings;
    }

    /**
     * @return the tally of regular files (zero, fingerprint null, when P itself failed and was not
     *         listed); P is fingerprinted before and after hashing, and a difference is a failure
     */
    Tally check(Path dir, List<AccountedFiles> accounted) {
        if (!acceptable(dir)) {
            return new Tally(0, 0, null);
        }
        try {
            String before = tree.fingerprint(dir);
            Tally tally = account(dir, tree.list(dir), accounted);
            String after = tree.fingerprint(dir);
            if (!before.equals(after)) {
                findings.fail(GateCheck.CHANGED_DURING_GATE, dir.toString());
            }
            return new Tally(tally.files(), tally.bytes(), after);
        } catch (IOException e) {
            findings.fail(GateCheck.UNREADABLE, dir + ": " + e.getMessage());
            return new Tally(0, 0, null);
        }
    }

    private Tally account(Path dir, List<LocalTree.Entry> entries, List<AccountedFiles> accounted) {
        int files = 0;
        long bytes = 0;
        for (LocalTree.Entry entry : entries) {
            String name = dir.relativize(entry.path()).toString();
            switch (entry.type()) {
                case SYMLINK -> findings.fail(GateCheck.SYMLINK, name);
                case OTHER, MISSING -> findings.fail(GateCheck.SPECIAL_FILE, name);
                case DIRECTORY -> { }
                case FILE -> {
                    files++;
                    bytes += entry.bytes();
                    account(entry, name, accounted);
                }
            }
        }
        return new Tally(files, bytes, null);
    }

    private boolean acceptable(Path dir) {
        if (!dir.isAbsolute() || !dir.normalize().equals(dir)) {
            findings.fail(GateCheck.NOT_NORMALISED, dir.toString());
            return false;
        }
        if (roots.protects(dir)) {
            findings.fail(GateCheck.PROTECTED_ROOT, dir.toString());
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
            if (rootsWithRealPaths().protects(real)) {
                findings.fail(GateCheck.PROTECTED_ROOT, dir + " (by the real path of a protected root)");
                return false;
            }
        } catch (IOException e) {
            findings.fail(GateCheck.UNREADABLE, dir + ": " + e.getMessage());
            return false;
        }
        return true;
    }

    /** @return the configured roots plus the real path of each that exists (a root named through a symlink) */
    private ProtectedRoots rootsWithRealPaths() {
        List<Path> all = new ArrayList<>(roots.roots());
        for (Path root : roots.roots()) {
            try {
                all.add(tree.realPath(root));
            } catch (IOException e) {
                // a root that does not exist has no other name
            }
        }
        return new ProtectedRoots(all);
    }

    private void account(LocalTree.Entry file, String name, List<AccountedFiles> accounted) {
        List<MemberEntry> candidates = accounted.stream().map(a -> a.entryFor(file.path()))
                .filter(Objects::nonNull).toList();
        if (candidates.isEmpty()) {
            findings.fail(GateCheck.UNACCOUNTED_FILE, name);
            return;
        }
        if (candidates.stream().noneMatch(c -> c.bytes() == file.bytes())) {
            findings.fail(GateCheck.CHANGED_FILE, name);
            return;
        }
        try {
            String sha256 = tree.sha256(file.path());
            if (candidates.stream().noneMatch(c -> c.bytes() == file.bytes() && sha256.equals(c.sha256()))) {
                findings.fail(GateCheck.CHANGED_FILE, name);
            }
        } catch (IOException e) {
            findings.fail(GateCheck.UNREADABLE, name + ": " + e.getMessage());
        }
    }
}
