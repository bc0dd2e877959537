package io.stowage.cli.audit;

import io.stowage.cli.CliException;
import io.stowage.store.ObjectReader;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Produces the bucket's side of the store audit from an {@link ObjectReader}: LIST under a prefix, then one HEAD per
 * key ({@value #HEADS_IN_FLIGHT} at a time) for its size and {@code sha256} metadata. An object deleted between LIST
 * and HEAD is left out.
 */
public final class AuditStoreListing {
    /** Concurrent HEAD requests (the S3 client allows 32 connections). */
    static final int HEADS_IN_FLIGHT = 16;

    private AuditStoreListing() {
    }

    /**
     * @param prefix key prefix to list ("" for the whole bucket)
     * @return the objects, keys ascending in {@link String} order; one HEAD request per object
     * @throws io.stowage.store.StoreException when the store cannot be listed or read (the first failed HEAD's)
     */
    public static List<AuditStoreEntry> of(ObjectReader reader, String prefix) {
        List<String> keys = reader.list(prefix);
        ExecutorService pool = Executors.newFixedThreadPool(HEADS_IN_FLIGHT);
        try {
            List<Future<Optional<AuditStoreEntry>>> heads = new ArrayList<>(keys.size());
            for (String key : keys) {
                heads.add(pool.submit(() -> reader.head(key).map(h -> new AuditStoreEntry(key, h.bytes(), h.sha256()))));
            }
            List<AuditStoreEntry> entries = new ArrayList<>(keys.size());
            for (Future<Optional<AuditStoreEntry>> head : heads) {
                await(head).ifPresent(entries::add);
            }
            entries.sort(Comparator.comparing(AuditStoreEntry::key));
            return entries;
        } finally {
            pool.shutdownNow();
        }
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(CliException.FAILED, "interrupted");
        }
    }
}
