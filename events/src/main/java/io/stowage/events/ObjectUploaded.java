package io.stowage.events;

/**
 * An object is in a store at its content address with its SHA-256 as user metadata
 * ({@code x-amz-meta-sha256}). Produced by uploader on {@link Topics#OBJECT_UPLOADED}, once per
 * object and store; consumed by verifier and ledger.
 *
 * @param assetId   the asset the object belongs to ({@link AssetIds})
 * @param store     logical store name: "primary" or "replica"
 * @param bucket    bucket name in that store
 * @param key       object key ({@link ObjectKeys})
 * @param kind      what the object is
 * @param bytes     object size in bytes
 * @param sha256    SHA-256 of the object's content, computed while uploading
 * @param etag      the ETag the store returned (quotes stripped)
 * @param localPath absolute path of the local file it was uploaded from
 * @param skipped   true when the same SHA-256 was already at the key and nothing was sent
 */
public record ObjectUploaded(EventMeta meta, String assetId, String store, String bucket, String key,
                             ObjectKind kind, long bytes, String sha256, String etag, String localPath,
                             boolean skipped) implements StowageEvent {

    public static ObjectUploaded of(EventMeta meta, String assetId, String store, String bucket, String key,
                                    ObjectKind kind, long bytes, String sha256, String etag, String localPath,
                                    boolean skipped) {
        ObjectUploaded event = new ObjectUploaded(meta, assetId, store, bucket, key, kind, bytes, sha256, etag,
                localPath, skipped);
        event.validate();
        return event;
    }

    @Override
    public String topic() {
        return Topics.OBJECT_UPLOADED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("assetId", assetId);
        Validation.requireText("store", store);
        Validation.requireText("bucket", bucket);
        Validation.requireText("key", key);
        Validation.require(kind != null, "kind is missing");
        Validation.requireNonNegative("bytes", bytes);
        Validation.requireSha256("sha256", sha256);
        Validation.requireText("localPath", localPath);
    }
}
