package io.stowage.store;

import java.net.URI;
import java.util.Objects;

/**
 * Where one logical object store lives and how to reach it: an S3-compatible endpoint addressed
 * path-style, a region, one bucket and static credentials (from the environment or a secrets
 * mount). {@link #toString()} never shows the secret.
 *
 * @param name            logical store name as it appears in events: "primary" or "replica"
 * @param endpoint        base URL of the S3 API, e.g. {@code http://127.0.0.1:9000}
 * @param region          signing region, e.g. {@code us-east-1}
 * @param bucket          bucket holding every object of this store
 * @param accessKeyId     access key id
 * @param secretAccessKey secret access key; never logged
 */
public record StoreConfig(String name, URI endpoint, String region, String bucket, String accessKeyId,
                          String secretAccessKey) {

    public StoreConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(secretAccessKey, "secretAccessKey");
    }

    @Override
    public String toString() {
        return "StoreConfig[name=" + name + ", endpoint=" + endpoint + ", region=" + region + ", bucket=" + bucket
                + ", accessKeyId=" + masked(accessKeyId) + ", secretAccessKey=****]";
    }

    /**
     * @param value a credential (access key id, token)
     * @return {@code ****} followed by its last two characters when it has more than eight, else {@code ****}: enough
     *         to tell two keys apart in a log line, too little to use or to search for
     */
    public static String masked(String value) {
        return value == null || value.length() <= 8 ? "****" : "****" + value.substring(value.length() - 2);
    }
}
