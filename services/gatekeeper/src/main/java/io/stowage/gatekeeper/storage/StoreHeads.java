package io.stowage.gatekeeper.storage;

import io.stowage.gatekeeper.domain.StoreLook;
import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.ObjectReader;
import io.stowage.store.ReadResult;
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
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The gate's {@link StoreLook} over the S3 stores: HEADs and full reads, through the store module's read-only
 * {@link ObjectReader} (no write or delete member is reachable), up to {@code inFlight} requests at a time, each retried
 * with short backoff ({@code attempts}, 200 ms doubling to 2 s) on a transient failure. Any failure that remains, a
 * store name it has no reader for, and every object still unanswered once no answer at all came for {@code timeout} (a
 * paused or silent server) is answered {@link StoreLook.State#UNREACHABLE}, so a decision never waits on a silent store
 * longer than that, while a store that answers steadily is waited for however many objects there are. Each look logs
 * how many objects it asked about and how long it took. {@link #close()} closes the clients and the threads.
 */
public final class StoreHeads implements StoreLook, AutoCloseable {
    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(StoreHeads.class);
    private final Map<String, S3ObjectReader> clients = new LinkedHashMap<>();
    private final Map<String, ObjectReader> readers = new LinkedHashMap<>();
    private final ExecutorService pool;
    private final Duration timeout;
    private final Duration rereadTimeout;
    /**
     * Full reads run two objects at a time on their own threads: a large object is read in parallel ranges of
     * {@link ReadTuning#defaults()} (4 × 16 MiB in memory), so two keep the reads under 128 MiB of the service's heap.
     */
    private final ExecutorService readPool = Executors.newFixedThreadPool(2, runnable -> {
        Thread thread = new Thread(runnable, "gate-store-read");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param stores   the stores by logical name ("primary", "replica"), with read credentials
     * @param inFlight HEAD requests in flight at once, at least 1
     * @param attempts attempts per HEAD, at least 1
     * @param timeout  longest wait of one look for its next answer
     */
    public StoreHeads(List<StoreConfig> stores, int inFlight, int attempts, Duration timeout) {
        this(stores, inFlight, attempts, timeout, Duration.ofMinutes(10));
    }

    /**
     * @param rereadTimeout longest wait of one round of full reads ({@link #readInFull}) for its next finished read
     */
    public StoreHeads(List<StoreConfig> stores, int inFlight, int attempts, Duration timeout, Duration rereadTimeout) {
        this.timeout = timeout;
        this.rereadTimeout = rereadTimeout;
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
        long started = System.nanoTime();
        Map<StoredObject, Seen> seen = ask(objects, pool, this::headOne, timeout);
        LOG.infof("looked at %d object(s) in their stores in %d ms (%d not answered or failed)", seen.size(),
                (System.nanoTime() - started) / 1_000_000, unreachable(seen));
        return seen;
    }

    /**
     * Reads each object in full through the store's read-only reader (a large object in parallel ranged reads), two
     * objects at a time, and answers what was read: its bytes and SHA-256, missing, or unreachable (a failure left
     * after the retries, or no read finished for the reread timeout). Logs how many objects and bytes it read and
     * how long it took.
     */
    @Override
    public Map<StoredObject, Seen> readInFull(Collection<StoredObject> objects) {
        long started = System.nanoTime();
        Map<StoredObject, Seen> seen = ask(objects, readPool, this::readOne, rereadTimeout);
        long bytes = seen.values().stream().filter(s -> s.state() == State.PRESENT).mapToLong(Seen::bytes).sum();
        LOG.infof("read %d object(s), %d bytes, in full in their stores in %d ms (%d not read)", seen.size(), bytes,
                (System.nanoTime() - started) / 1_000_000, unreachable(seen));
        return seen;
    }

    /** Runs {@code request} for each distinct object on {@code threads}; answers in the objects' order (see {@link #collect}). */
    private static Map<StoredObject, Seen> ask(Collection<StoredObject> objects, ExecutorService threads,
                                               java.util.function.Function<StoredObject, Seen> request, Duration timeout) {
        List<StoredObject> distinct = new ArrayList<>(new LinkedHashSet<>(objects));
        CompletionService<Seen> done = new ExecutorCompletionService<>(threads);
        Map<Future<Seen>, StoredObject> asked = new LinkedHashMap<>();
        for (StoredObject object : distinct) {
            asked.put(done.submit(() -> request.apply(object)), object);
        }
        Map<StoredObject, Seen> seen = collect(done, asked, timeout);
        Map<StoredObject, Seen> ordered = new LinkedHashMap<>();
        distinct.forEach(o -> ordered.put(o, seen.get(o)));
        return ordered;
    }

    private static long unreachable(Map<StoredObject, Seen> seen) {
        return seen.values().stream().filter(s -> s.state() == State.UNREACHABLE).count();
    }

    /**
     * Takes the answers of {@code asked} as they come. The look ends when every object is answered, or when no answer
     * came for {@code timeout}: a store that answers, however slowly, is waited for (a step of many thousand files is
     * HEADed in full), and a silent or paused one costs at most {@code timeout} after its last answer. Every object not
     * answered then is cancelled and answered {@link State#UNREACHABLE}.
     *
     * @param asked each submitted HEAD to the object it asks about
     * @return one answer per object of {@code asked}
     */
    static Map<StoredObject, Seen> collect(CompletionService<Seen> done, Map<Future<Seen>, StoredObject> asked,
                                           Duration timeout) {
        Map<StoredObject, Seen> seen = new LinkedHashMap<>();
        int pending = asked.size();
        try {
            while (pending > 0) {
                Future<Seen> next = done.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
                if (next == null) {
                    break;
                }
                pending--;
                seen.put(asked.get(next), answer(next));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        asked.forEach((future, object) -> {
            if (!seen.containsKey(object)) {
                future.cancel(true);
                seen.put(object, Seen.unreachable("no answer from the store for " + timeout.toMillis()
                        + " ms (no request of this look was answered meanwhile)"));
            }
        });
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

    private Seen readOne(StoredObject object) {
        ObjectReader reader = readers.get(object.store());
        if (reader == null) {
            return Seen.unreachable("no store named " + object.store() + " is configured");
        }
        try {
            ReadResult read = reader.readAndHash(object.key());
            return Seen.present(read.bytes(), read.sha256());
        } catch (ObjectNotFoundException e) {
            return Seen.missing();
        } catch (RuntimeException e) {
            return Seen.unreachable(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static Seen answer(Future<Seen> finished) {
        try {
            return finished.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Seen.unreachable("interrupted");
        } catch (ExecutionException | java.util.concurrent.CancellationException e) {
            return Seen.unreachable(String.valueOf(e.getCause() == null ? e : e.getCause()));
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
        readPool.shutdownNow();
        clients.values().forEach(S3ObjectReader::close);
    }
}
