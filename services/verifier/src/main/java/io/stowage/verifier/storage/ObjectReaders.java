package io.stowage.verifier.storage;

import io.stowage.store.ObjectReader;
import io.stowage.store.RetryPolicy;
import io.stowage.store.RetryingObjectReader;
import io.stowage.store.StoreSettings;
import io.stowage.store.UrlSigner;
import io.stowage.store.s3.S3UrlSigner;
import io.stowage.store.s3.HttpBackend;
import io.stowage.store.s3.ReadTuning;
import io.stowage.store.s3.S3ObjectReader;
import io.stowage.verifier.VerifierSettings;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Map;
import java.util.Optional;

/**
 * The verifier's read-only access to the stores: one {@link ObjectReader} per logical store name
 * ("primary", "replica"), retrying transient failures, reading large objects as ranged GETs
 * ({@code stowage.verifier.ranged-read-*}) on the blocking S3 client ({@link S3ObjectReader}, HTTP client
 * {@code stowage.verifier.http-client}); and one {@link UrlSigner} per store, signing presigned GET URLs with the same
 * read credentials. It hands out no writer and builds none.
 */
@ApplicationScoped
public class ObjectReaders {
    private final Map<String, S3ObjectReader> stores;
    private final Map<String, ObjectReader> readers;
    private final Map<String, UrlSigner> signers;

    ObjectReaders(StoreSettings stores, VerifierSettings settings) {
        RetryPolicy retry = new RetryPolicy(settings.retryAttempts(), settings.retryInitialBackoff(),
                settings.retryMaxBackoff());
        ReadTuning reads = new ReadTuning(settings.rangedReadThreshold(), settings.rangedReadPartSize(),
                settings.rangedReadsInFlight());
        HttpBackend http = HttpBackend.valueOf(settings.httpClient().name());
        this.stores = Map.of(
                "primary", new S3ObjectReader(StoreSettings.config("primary", stores.primary()), reads, http),
                "replica", new S3ObjectReader(StoreSettings.config("replica", stores.replica()), reads, http));
        this.signers = Map.of(
                "primary", new S3UrlSigner(StoreSettings.config("primary", stores.primary())),
                "replica", new S3UrlSigner(StoreSettings.config("replica", stores.replica())));
        this.readers = Map.of(
                "primary", new RetryingObjectReader(this.stores.get("primary"), retry),
                "replica", new RetryingObjectReader(this.stores.get("replica"), retry));
    }

    /** @return the reader of the store named in an event, empty for an unknown name */
    public Optional<ObjectReader> forStore(String store) {
        return Optional.ofNullable(readers.get(store));
    }

    /** @return the URL signer of the store named, empty for an unknown name */
    public Optional<UrlSigner> signer(String store) {
        return Optional.ofNullable(signers.get(store));
    }

    @PreDestroy
    void close() {
        stores.values().forEach(S3ObjectReader::close);
        signers.values().forEach(UrlSigner::close);
    }
}
