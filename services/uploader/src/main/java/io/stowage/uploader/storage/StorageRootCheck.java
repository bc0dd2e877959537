package io.stowage.uploader.storage;

import io.quarkus.runtime.StartupEvent;
import io.stowage.events.ObjectKeys;
import io.stowage.store.ObjectWriter;
import io.stowage.store.ReadResult;
import io.stowage.uploader.StorageRootSettings;
import io.stowage.uploader.UploaderSettings;
import io.stowage.uploader.domain.StorageRootManifest;
import io.stowage.uploader.domain.UploadTask;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * At start-up, after the store probe: puts the storage root manifest ({@link StorageRootManifest}) at
 * {@value ObjectKeys#ROOT_MANIFEST} of the primary store when it is absent, then reads the stored object back in
 * full and compares it with this version's bytes (length and SHA-256 of every byte read). A difference stops the
 * start-up with one line. The uploader is the only service that writes to the store, so it is the one that does this.
 */
@ApplicationScoped
public class StorageRootCheck {
    private static final Logger LOG = Logger.getLogger(StorageRootCheck.class);

    private final ObjectWriters writers;
    private final StorageRootSettings settings;
    private final UploaderSettings uploader;

    StorageRootCheck(ObjectWriters writers, StorageRootSettings settings, UploaderSettings uploader) {
        this.writers = writers;
        this.settings = settings;
        this.uploader = uploader;
    }

    /** Runs after {@link ObjectWriters}' probe (higher priority number = later). */
    void onStart(@Observes @Priority(Interceptor.Priority.APPLICATION + 600) StartupEvent start) {
        if (settings.enabled()) {
            run();
        }
    }

    /**
     * Puts the manifest when absent, then reads it back and compares.
     *
     * @return what was found before: {@link StorageRootManifest.Action#PUT} when it was absent and is now stored,
     *         {@link StorageRootManifest.Action#MATCHES} when it was already there with the same bytes
     * @throws IllegalStateException (stopping the start-up) with a one-line message when the stored bytes differ
     */
    StorageRootManifest.Action run() {
        ObjectWriter primary = writers.forStore(UploadTask.PRIMARY);
        boolean absent = primary.head(ObjectKeys.ROOT_MANIFEST).isEmpty();
        if (absent) {
            put(primary);
        }
        ReadResult back = writers.readBack(UploadTask.PRIMARY, ObjectKeys.ROOT_MANIFEST);
        if (StorageRootManifest.decide(back.bytes(), back.sha256()) != StorageRootManifest.Action.MATCHES) {
            String message = StorageRootManifest.mismatchMessage(UploadTask.PRIMARY, primary.bucket(), back.bytes(), back.sha256());
            LOG.error(message);
            throw new IllegalStateException(message);
        }
        LOG.infof("storage root manifest %s:%s/%s %s and read back (%d bytes, sha256 %s)", UploadTask.PRIMARY,
                primary.bucket(), ObjectKeys.ROOT_MANIFEST, absent ? "put" : "found", back.bytes(), back.sha256());
        return absent ? StorageRootManifest.Action.PUT : StorageRootManifest.Action.MATCHES;
    }

    private void put(ObjectWriter primary) {
        byte[] bytes = StorageRootManifest.bytes();
        try {
            Files.createDirectories(uploader.stateDir());
            Path file = Files.createTempFile(uploader.stateDir(), "storage-root", ".json");
            try {
                Files.write(file, bytes);
                primary.put(ObjectKeys.ROOT_MANIFEST, file, bytes.length, StorageRootManifest.sha256(),
                        Map.of());
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stage the storage root manifest under " + uploader.stateDir(), e);
        }
    }
}
