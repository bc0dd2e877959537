package io.stowage.verifier.domain;

import io.stowage.events.ObjectUploaded;

/**
 * Consumes the upload of a replica object and produces the expectation for its primary copy: the same key,
 * kind, bytes and SHA-256 (content addresses are the same in both stores), in the primary bucket. Its meta
 * is the replica upload's, so a result judged against it is caused by the replica upload.
 */
public final class PrimaryCopy {
    private PrimaryCopy() {
    }

    /** @param primaryBucket the bucket of the configured primary store */
    public static ObjectUploaded of(ObjectUploaded replica, String primaryBucket) {
        return ObjectUploaded.of(replica.meta(), replica.assetId(), "primary", primaryBucket, replica.key(),
                replica.kind(), replica.bytes(), replica.sha256(), replica.etag(), replica.localPath(), replica.skipped());
    }
}
