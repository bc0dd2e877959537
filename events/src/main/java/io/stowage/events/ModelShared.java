package io.stowage.events;

/**
 * Presigned GET URLs for every file of a model revision were handed to someone: that a share was made, by whom and
 * for how long, never the URLs (a URL is a bearer credential until it expires). Produced by the CLI
 * ({@code stowage model share}) on {@link Topics#MODEL_SHARED}; consumed by the ledger (kept in its event chain).
 *
 * @param sharedBy         the operating-system user who ran the command
 * @param expiresInSeconds how long the URLs work, 1 to 604,800 s (7 days)
 * @param expiresAt        when they stop working (ISO-8601, UTC)
 * @param fileCount        URLs made, one per file
 * @param manifestSha256   SHA-256 of the model manifest the URLs were made from
 */
public record ModelShared(EventMeta meta, String model, String revision, String sharedBy, long expiresInSeconds,
                          String expiresAt, int fileCount, String manifestSha256) implements StowageEvent {
    /** The longest a presigned URL may live (SigV4's limit): 7 days. */
    public static final long MAX_SECONDS = 604_800L;

    public static ModelShared of(EventMeta meta, String model, String revision, String sharedBy, long expiresInSeconds,
                                 String expiresAt, int fileCount, String manifestSha256) {
        ModelShared event = new ModelShared(meta, model, revision, sharedBy, expiresInSeconds, expiresAt, fileCount,
                manifestSha256);
        event.validate();
        return event;
    }

    /** @return {@code model/<model>/<revision>}: the share is ordered with the revision's other events */
    @Override
    public String assetId() {
        return AssetIds.model(model, revision);
    }

    @Override
    public String topic() {
        return Topics.MODEL_SHARED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireSegment("model", model);
        Validation.requireSegment("revision", revision);
        Validation.requireText("sharedBy", sharedBy);
        Validation.require(expiresInSeconds >= 1 && expiresInSeconds <= MAX_SECONDS,
                "expiresInSeconds must be 1 to " + MAX_SECONDS);
        Validation.requireText("expiresAt", expiresAt);
        Validation.requireNonNegative("fileCount", fileCount);
        Validation.requireSha256("manifestSha256", manifestSha256);
        Validation.require(!sharedBy.contains("://") && !expiresAt.contains("://"), "a share event never holds a URL");
    }
}
