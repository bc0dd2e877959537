package io.stowage.events;

/**
 * The result of verifying one object in one store. Produced by verifier on
 * {@link Topics#OBJECT_VERIFIED}: one HEAD result per object, plus one FULL_READ result for each
 * object it re-downloads; consumed by the ledger (evidence for gate conditions 1, 2 and 4).
 *
 * @param expectedBytes  bytes from the {@link ObjectUploaded} event
 * @param expectedSha256 SHA-256 from the {@link ObjectUploaded} event
 * @param actualBytes    bytes the store reported (HEAD) or returned (FULL_READ); -1 when missing
 * @param actualSha256   SHA-256 metadata (HEAD) or recomputed digest (FULL_READ); null when missing
 * @param detail         one line explaining a non-OK result; when OK, null or the verifier's sampling reason
 *                       (why the object was or was not read in full, e.g. "full read: manifest")
 */
public record ObjectVerified(EventMeta meta, String assetId, String store, String bucket, String key,
                             ObjectKind kind, VerifyMethod method, VerifyResult result,
                             long expectedBytes, String expectedSha256, long actualBytes, String actualSha256,
                             String detail) implements StowageEvent {

    public static ObjectVerified of(EventMeta meta, String assetId, String store, String bucket, String key,
                                    ObjectKind kind, VerifyMethod method, VerifyResult result,
                                    long expectedBytes, String expectedSha256, long actualBytes, String actualSha256,
                                    String detail) {
        ObjectVerified event = new ObjectVerified(meta, assetId, store, bucket, key, kind, method, result,
                expectedBytes, expectedSha256, actualBytes, actualSha256, detail);
        event.validate();
        return event;
    }

    @Override
    public String topic() {
        return Topics.OBJECT_VERIFIED;
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
        Validation.require(method != null, "method is missing");
        Validation.require(result != null, "result is missing");
        Validation.requireSha256("expectedSha256", expectedSha256);
    }
}
