package io.stowage.uploader.storage;

import io.quarkus.runtime.StartupEvent;
import io.stowage.store.ObjectWriter;
import io.stowage.store.ReadResult;
import io.stowage.store.RetryPolicy;
import io.stowage.store.RetryingObjectWriter;
import io.stowage.store.StoreAccessException;
import io.stowage.store.StoreException;
import io.stowage.store.StoreSettings;
import io.stowage.store.UploadObserver;
import io.stowage.store.s3.ReadTuning;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.store.s3.UploadTuning;
import io.stowage.uploader.UploaderSettings;
import io.stowage.uploader.domain.UploadTask;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import io.stowage.messaging.ClusterLease;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The uploader's write access to the primary and replica stores: one {@link ObjectWriter} per
 * logical store name, retrying transient failures, with multipart upload journals under
 * {@code <state-dir>/journals/<store>/} so that an upload interrupted by a crash is continued. At
 * start-up it probes both stores (a wrong endpoint, a missing bucket or refused credentials stop the
 * service with one line) and then aborts abandoned multipart uploads every sweep interval: of several uploader
 * instances, only the one holding the cluster lease ({@link ClusterLease}, group {@code stowage.kafka.lease.uploader})
 * sweeps, so that N instances do not list and abort the same uploads N times (a sweep run twice aborts nothing more),
 * and it keeps every upload that its own journals or the other instances' ({@link UploaderSettings#peerStateDirs()})
 * name, so that it never aborts an upload another instance will resume.
 * It hands out no reader and no delete.
 */
@ApplicationScoped
public class ObjectWriters {
    private static final Logger LOG = Logger.getLogger(ObjectWriters.class);
    private final Map<String, S3ObjectStore> stores;
    private final Map<String, ObjectWriter> writers;
    private final UploaderSettings settings;
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stowage-upload-sweeper");
        t.setDaemon(true);
        return t;
    });

    private final Config config;
    private ClusterLease lease;

    /**
     * @param stores   the primary and replica stores' endpoints, buckets and credentials
     * @param settings retries, multipart tuning, the state directory (journals) and the sweep's age and interval
     * @param config   where the cluster lease's group and Kafka connection are read when the sweep starts
     */
    public ObjectWriters(StoreSettings stores, UploaderSettings settings, Config config) {
        this.settings = settings;
        this.config = config;
        UploadTuning tuning = new UploadTuning(settings.multipartThreshold(), settings.partSize(),
                settings.partsInFlight());
        RetryPolicy retry = new RetryPolicy(settings.retryAttempts(), settings.retryInitialBackoff(),
                settings.retryMaxBackoff());
        this.stores = Map.of(
                UploadTask.PRIMARY, store(UploadTask.PRIMARY, stores.primary(), tuning),
                UploadTask.REPLICA, store(UploadTask.REPLICA, stores.replica(), tuning));
        this.writers = Map.of(
                UploadTask.PRIMARY, new RetryingObjectWriter(this.stores.get(UploadTask.PRIMARY), retry),
                UploadTask.REPLICA, new RetryingObjectWriter(this.stores.get(UploadTask.REPLICA), retry));
    }

    /**
     * Probes both stores, then schedules the sweep of abandoned multipart uploads.
     *
     * @throws StoreAccessException (stopping the start-up) when a store is unusable; its message is one line
     */
    void onStart(@Observes StartupEvent start) {
        if (settings.probeStores()) {
            for (S3ObjectStore store : stores.values()) {
                try {
                    store.probe();
                } catch (StoreAccessException e) {
                    LOG.error(e.getMessage());
                    throw e;
                }
            }
        }
        stores.values().forEach(s -> LOG.infof("object store %s ready", s));
        long every = Math.max(1, settings.abandonedUploadSweep().toSeconds());
        lease = ClusterLease.fromConfig("uploader", config).start();
        sweeper.scheduleWithFixedDelay(this::sweep, 0, every, TimeUnit.SECONDS);
    }

    private void sweep() {
        if (!lease.held()) {
            LOG.debugf("another uploader instance holds the cluster lease: it sweeps abandoned multipart uploads");
            return;
        }
        for (Map.Entry<String, ObjectWriter> writer : writers.entrySet()) {
            try {
                int aborted = writer.getValue().abortUploadsOlderThan(settings.abandonUploadsAfter());
                if (aborted > 0) {
                    LOG.infof("aborted %d multipart uploads older than %s in store %s", aborted,
                            settings.abandonUploadsAfter(), writer.getKey());
                }
            } catch (StoreException | java.io.UncheckedIOException e) { // unreadable journals: abort nothing this pass
                LOG.warnf("sweep of abandoned multipart uploads in store %s failed: %s", writer.getKey(), e.getMessage());
            }
        }
    }

    /**
     * @param store "primary" or "replica"
     * @throws IllegalArgumentException for any other name
     */
    public ObjectWriter forStore(String store) {
        ObjectWriter writer = writers.get(store);
        if (writer == null) {
            throw new IllegalArgumentException("no store named " + store);
        }
        return writer;
    }

    /**
     * Reads one object of {@code store} back in full (for the storage root manifest's check, {@link StorageRootCheck}).
     *
     * @param store "primary" or "replica"
     * @return bytes read and their SHA-256
     * @throws io.stowage.store.ObjectNotFoundException when the object is absent; other {@link StoreException}s as the store answers
     */
    ReadResult readBack(String store, String key) {
        S3ObjectStore s = stores.get(store);
        if (s == null) {
            throw new IllegalArgumentException("no store named " + store);
        }
        return s.readAndHash(key);
    }

    private S3ObjectStore store(String name, StoreSettings.Store s, UploadTuning tuning) {
        List<Path> peers = settings.peerStateDirs().orElse(List.of()).stream()
                .map(d -> d.resolve("journals").resolve(name)).toList();
        return new S3ObjectStore(StoreSettings.config(name, s), tuning, ReadTuning.defaults(),
                settings.stateDir().resolve("journals").resolve(name), peers, new ProgressLog(name), Clock.systemUTC());
    }

    /** Logs the start of each multipart upload (new or resumed) and each part the store confirmed. */
    private record ProgressLog(String store) implements UploadObserver {
        @Override
        public void started(String key, String uploadId, boolean resumed, int confirmed) {
            LOG.infof("%s multipart upload %s of %s:%s (%d parts already confirmed)", resumed ? "resuming" : "starting",
                    uploadId, store, key, confirmed);
        }

        @Override
        public void partSent(String key, String uploadId, int partNumber, long bytes) {
            LOG.debugf("part %d (%d bytes) of %s:%s confirmed", partNumber, bytes, store, key);
        }
    }

    /** Stops the sweep and the cluster lease, and closes both stores' clients. */
    @PreDestroy
    public void close() {
        sweeper.shutdownNow();
        if (lease != null) {
            lease.close();
        }
        stores.values().forEach(S3ObjectStore::close);
    }
}
