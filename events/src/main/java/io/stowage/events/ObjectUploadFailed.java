package io.stowage.events;

/**
 * An object could not be uploaded. Produced by uploader on {@link Topics#OBJECT_UPLOAD_FAILED};
 * consumed by the ledger and shown by the CLI.
 *
 * @param key       the object key that was being written (may be null if it could not be formed)
 * @param localPath the local file
 * @param reason    one line naming the problem, e.g. "model.pt changed since publish: sha256 ... != ..."
 * @param permanent true when retrying cannot help (changed or missing source, invalid name)
 */
public record ObjectUploadFailed(EventMeta meta, String assetId, String store, String key, String localPath,
                                 String reason, boolean permanent) implements StowageEvent {

    public static ObjectUploadFailed of(EventMeta meta, String assetId, String store, String key, String localPath,
                                        String reason, boolean permanent) {
        ObjectUploadFailed event = new ObjectUploadFailed(meta, assetId, store, key, localPath, reason, permanent);
        event.validate();
        return event;
    }

    @Override
    public String topic() {
        return Topics.OBJECT_UPLOAD_FAILED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("assetId", assetId);
        Validation.requireText("reason", reason);
    }
}
