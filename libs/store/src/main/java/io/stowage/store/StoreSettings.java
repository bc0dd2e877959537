package io.stowage.store;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.net.URI;

/**
 * The two object stores, from {@code stowage.store.primary.*} and {@code stowage.store.replica.*}
 * (environment: {@code STOWAGE_STORE_PRIMARY_ENDPOINT}, ...). Endpoints and credentials have no
 * default on purpose: they come from the environment or a secrets mount, never from the jar. The one mapping of
 * {@code stowage.store}, shared by the uploader and the verifier (the only services given these keys); the annotation
 * is inert outside Quarkus, so the library stays framework-free.
 */
@ConfigMapping(prefix = "stowage.store")
public interface StoreSettings {
    /** The store every object goes to. */
    Store primary();

    /** The second store for key checkpoints. */
    Store replica();

    /** One S3-compatible store, addressed path-style. */
    interface Store {
        /** Base URL of the S3 API, e.g. {@code http://127.0.0.1:9000}. */
        URI endpoint();

        /** Signing region. */
        @WithDefault("us-east-1")
        String region();

        /** Bucket holding every object of this store. */
        String bucket();

        /** Access key id. */
        String accessKeyId();

        /** Secret access key; never logged. */
        String secretAccessKey();
    }

    /** @return the {@link StoreConfig} of store {@code s} named {@code name} ("primary" or "replica") */
    static StoreConfig config(String name, Store s) {
        return new StoreConfig(name, s.endpoint(), s.region(), s.bucket(), s.accessKeyId(), s.secretAccessKey());
    }
}
