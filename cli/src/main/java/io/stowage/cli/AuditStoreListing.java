package io.stowage.cli;

import io.stowage.store.ObjectReader;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Produces the bucket's side of the store audit from an {@link ObjectReader}: LIST under a prefix, then one HEAD per
 * key for its size and {@code sha256} metadata. An object deleted between LIST and HEAD is left out.
 */
final class AuditStoreListing {
    private AuditStoreListing() {
    }

    /**
     * @param prefix key prefix to list ("" for the whole bucket)
     * @return the objects, keys ascending in {@link String} order; one HEAD request per object
     * @throws io.stowage.store.StoreException when the store cannot be listed or read
     */
    static List<AuditStoreEntry> of(ObjectReader reader, String prefix) {
        List<AuditStoreEntry> entries = new ArrayList<>();
        for (String key : reader.list(prefix)) {
            reader.head(key).ifPresent(head -> entries.add(new AuditStoreEntry(key, head.bytes(), head.sha256())));
        }
        entries.sort(Comparator.comparing(AuditStoreEntry::key));
        return entries;
    }
}
