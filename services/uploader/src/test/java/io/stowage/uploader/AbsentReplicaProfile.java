package io.stowage.uploader;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/**
 * The uploader whose replica store names a bucket that does not exist in S3Proxy (start-up probe off, so
 * it starts): every replica upload is refused with HTTP 404 NoSuchBucket, a permanent failure.
 */
public final class AbsentReplicaProfile implements QuarkusTestProfile {
    /** The replica bucket of this profile; never created. */
    public static final String ABSENT_BUCKET = "stowage-absent-replica";

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("stowage.store.replica.bucket", ABSENT_BUCKET,
                "stowage.uploader.probe-stores", "false",
                "stowage.uploader.retry-initial-backoff", "PT5S");
    }
}
