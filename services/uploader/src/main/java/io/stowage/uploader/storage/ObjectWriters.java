package io.stowage.uploader.storage;

import io.stowage.store.ObjectWriter;
import io.stowage.store.RetryPolicy;
import io.stowage.store.RetryingObjectWriter;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.store.s3.UploadTuning;
import io.stowage.uploader.domain.UploadTask;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.Map;

/**
 * The uploader's write access to the primary and replica stores: one {@link ObjectWriter} per
 * logical store name, retrying transient failures. It hands out no reader and no delete.
 */
@ApplicationScoped
public class ObjectWriters {
    private static final Logger LOG = Logger.getLogger(ObjectWriters.class);
    private final Map<String, S3ObjectStore> stores;
    private final Map<String, ObjectWriter> writers;

    ObjectWriters(StoreSettings stores, UploaderSettings settings) {
        UploadTuning tuning = new UploadTuning(settings.multipartThreshold(), settings.partSize(),
                settings.partsInFlight());
        RetryPolicy retry = new RetryPolicy(settings.retryAttempts(), settings.retryInitialBackoff(),
                settings.retryMaxBackoff());
        this.stores = Map.of(
                UploadTask.PRIMARY, new S3ObjectStore(config(UploadTask.PRIMARY, stores.primary()), tuning),
                UploadTask.REPLICA, new S3ObjectStore(config(UploadTask.REPLICA, stores.replica()), tuning));
        this.writers = Map.of(
                UploadTask.PRIMARY, new RetryingObjectWriter(this.stores.get(UploadTask.PRIMARY), retry),
                UploadTask.REPLICA, new RetryingObjectWriter(this.stores.get(UploadTask.REPLICA), retry));
        this.stores.values().forEach(s -> LOG.infof("object store %s ready", s));
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

    private static StoreConfig config(String name, StoreSettings.Store s) {
        return new StoreConfig(name, s.endpoint(), s.region(), s.bucket(), s.accessKeyId(), s.secretAccessKey());
    }

    @PreDestroy
    void close() {
        stores.values().forEach(S3ObjectStore::close);
    }
}
