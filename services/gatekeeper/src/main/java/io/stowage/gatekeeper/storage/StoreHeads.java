package io.stowage.gatekeeper.storage;

import io.stowage.gatekeeper.domain.StoreLook;
import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectReader;
import io.stowage.store.RetryPolicy;
import io.stowage.store.RetryingObjectReader;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.HttpBackend;
import io.stowage.store.s3.ReadTuning;
import io.stowage.store.s3.S3ObjectReader;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The gate's {@link StoreLook} over the S3 stores: HEAD only, through the store module's read-only
 * {@link ObjectReader} (no write or delete member is reachable), up to {@code inFlight} requests at a time, each retried
 * with short backoff ({@code attempts}, 200 ms doubling to 2 s) on a transient failure. Any failure that remains, a
 * store name it has no reader for, and every object not answered within {@code timeout} of the look's start (a paused
 * or silent server) is answered {@link StoreLook.State#UNREACHABLE}, so a decision never waits on the store without
 * bound. {@link #close()} closes the clients and the threads.
 */
public final class StoreHeads implements StoreLook, AutoCloseable {
    private final Map<String, S3ObjectReader> clients = new LinkedHashMap<>();
    private final Map<String, ObjectReader> readers = new LinkedHashMap<>();
    private final ExecutorService pool;
    private final Duration timeout;

    /**
     * @param stores   the stores by logical name ("primary", "replica"), with read credentials
     * @param inFlight HEAD requests in flight at once, at least 1
     * @param attempts attempts per HEAD, at least 1
     * @param timeout  longest wait for all the answers of one look, from its start
     */
    public StoreHeads(List<StoreConfig> stores, int inFlight, int attempts, Duration timeout) {
        this.timeout = timeout;
        RetryPolicy retry = new RetryPolicy(Math.max(1, attempts), Duration.ofMillis(200), Duration.ofSeconds(2));
        for (StoreConfig config : stores) {
            S3ObjectReader client = new S3ObjectReader(config, ReadTuning.defaults(), HttpBackend.APACHE);
            clients.put(config.name(), client);
            readers.put(config.name(), new RetryingObjectReader(client, retry));
        }
        this.pool = Executors.newFixedThreadPool(Math.max(1, inFlight), runnable -> {
            Thread thread = new Thread(runnable, "gate-store-head");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public Map<StoredObject, Seen> head(Collection<StoredObject> objects) {
        List<StoredObject> distinct = new ArrayList<>(new LinkedHashSet<>(objects));
        List<Future<Seen>> answers = new ArrayList<>(distinct.size());
        for (StoredObject object : distinct) {
            answers.add(pool.submit(() -> headOne(object)));
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<StoredObject, Seen> seen = new LinkedHashMap<>();
        for (int i = 0; i < distinct.size(); i++) {
            seen.put(distinct.get(i), answer(answers.get(i), deadline));
        }
        return seen;
    }

    private Seen headOne(StoredObject object) {
        ObjectReader reader = readers.get(object.store());
        if (reader == null) {
            return Seen.unreachable("no store named " + object.store() + " is configured");
        }
        try {
            Optional<ObjectHead> head = reader.head(object.key());
            return head.map(h -> Seen.present(h.bytes(), h.sha256())).orElseGet(Seen::missing);
        } catch (RuntimeException e) {
            return Seen.unreachable(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private Seen answer(Future<Seen> future, long deadline) {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            return Seen.unreachable("no answer within " + timeout.toMillis() + " ms of the look's start");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Seen.unreachable("interrupted");
        } catch (ExecutionException e) {
            return Seen.unreachable(String.valueOf(e.getCause()));
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
        clients.values().forEach(S3ObjectReader::close);
    }
}
