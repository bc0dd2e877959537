package io.stowage.cli.audit;

import java.util.ArrayList;
import java.util.List;

/**
 * Merges the ledger's objects of one bucket with the bucket's own listing, both sorted by key, and produces the
 * disagreements: objects missing from the bucket, objects the ledger does not know, sizes and SHA-256s that differ.
 * A run's {@code checkpoints/<experiment>/<run>/latest.json} pointer is mutable, not content-addressed and not in
 * the ledger (the uploader rewrites it once a newer step is verified), so the bucket's pointers are not reported as
 * unknown; nor is the storage root manifest ({@code manifests/storage-root-v1.json}, put by the uploader at start-up). Pure: no I/O.
 */
public final class AuditStoreReconciler {
    private AuditStoreReconciler() {
    }

    /**
     * @param ledger what the ledger knows of the bucket, keys strictly ascending ({@link String#compareTo} order)
     * @param store  what the bucket holds, keys strictly ascending
     * @return the findings in key order; empty when both sides agree on every key, size and SHA-256
     * @throws IllegalArgumentException when a list is not strictly ascending (unsorted, or a key twice)
     */
    public static List<AuditStoreFinding> reconcile(List<AuditStoreEntry> ledger, List<AuditStoreEntry> store) {
        requireAscending("ledger", ledger);
        requireAscending("store", store);
        List<AuditStoreFinding> findings = new ArrayList<>();
        int l = 0;
        int s = 0;
        while (l < ledger.size() || s < store.size()) {
            int order = l == ledger.size() ? 1 : s == store.size() ? -1 : ledger.get(l).key().compareTo(store.get(s).key());
            if (order < 0) {
                findings.add(new AuditStoreFinding(AuditStoreFinding.Problem.MISSING, ledger.get(l++).key(), null, null));
            } else if (order > 0 && uncompared(store.get(s).key())) {
                s++;
            } else if (order > 0) {
                findings.add(new AuditStoreFinding(AuditStoreFinding.Problem.UNKNOWN, store.get(s++).key(), null, null));
            } else {
                compare(ledger.get(l++), store.get(s++), findings);
            }
        }
        return findings;
    }

    /**
     * @return whether {@code key} is an object the ledger never records and the audit does not report as unknown: a
     *         run's {@code latest.json} pointer or the storage root manifest
     */
    public static boolean uncompared(String key) {
        return isRunPointer(key) || isStorageRoot(key);
    }

    /** @return whether {@code key} is the storage root manifest, which the uploader puts at start-up without an event */
    static boolean isStorageRoot(String key) {
        return key.equals(io.stowage.events.ObjectKeys.ROOT_MANIFEST);
    }

    /** @return whether {@code key} is {@code checkpoints/<experiment>/<run>/latest.json} (three segments before it) */
    static boolean isRunPointer(String key) {
        String[] parts = key.split("/", -1);
        return parts.length == 4 && parts[0].equals("checkpoints") && parts[3].equals("latest.json")
                && !parts[1].isEmpty() && !parts[2].isEmpty();
    }

    // a ledger without a SHA-256 for the object has nothing to compare; an object without sha256 metadata cannot prove its content
    private static void compare(AuditStoreEntry ledger, AuditStoreEntry store, List<AuditStoreFinding> findings) {
        if (ledger.bytes() != store.bytes()) {
            findings.add(new AuditStoreFinding(AuditStoreFinding.Problem.SIZE, ledger.key(),
                    Long.toString(ledger.bytes()), Long.toString(store.bytes())));
        }
        if (ledger.sha256() != null && !ledger.sha256().equalsIgnoreCase(store.sha256() == null ? "" : store.sha256())) {
            findings.add(new AuditStoreFinding(AuditStoreFinding.Problem.SHA256, ledger.key(), ledger.sha256(),
                    store.sha256() == null ? "none" : store.sha256()));
        }
    }

    private static void requireAscending(String side, List<AuditStoreEntry> entries) {
        for (int i = 1; i < entries.size(); i++) {
            if (entries.get(i - 1).key().compareTo(entries.get(i).key()) >= 0) {
                throw new IllegalArgumentException(side + " keys are not strictly ascending at " + entries.get(i).key());
            }
        }
    }
}
