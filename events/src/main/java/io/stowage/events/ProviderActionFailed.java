package io.stowage.events;

/**
 * A provider refused an action (HTTP 4xx other than 404-on-delete and 429) or kept failing after the retries
 * (5xx, 429, I/O). Produced by provider-adapter on {@link Topics#PROVIDER_ACTION_FAILED}. Never carries a secret.
 *
 * @param action       "create-volume", "destroy-volume", "create-pod", "terminate-pod", "status"
 * @param resourceKind "volume" or "pod"
 * @param resourceId   the id, or the requested name when creation failed
 * @param httpStatus   the provider's last HTTP status, 0 when none (I/O failure, local provider)
 * @param permanent    true for a 4xx: retrying the same request will not help
 * @param reason       one line: the provider's error message
 */
public record ProviderActionFailed(EventMeta meta, String action, String resourceKind, String resourceId,
                                   String provider, int httpStatus, boolean permanent, String reason)
        implements StowageEvent {

    public static ProviderActionFailed of(EventMeta meta, String action, String resourceKind, String resourceId,
                                          String provider, int httpStatus, boolean permanent, String reason) {
        ProviderActionFailed event = new ProviderActionFailed(meta, action, resourceKind, resourceId, provider,
                httpStatus, permanent, reason == null ? "" : reason.replaceAll("[\\r\\n]+", " "));
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return "pod".equals(resourceKind) ? AssetIds.pod(resourceId) : AssetIds.volume(resourceId);
    }

    @Override
    public String topic() {
        return Topics.PROVIDER_ACTION_FAILED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("action", action);
        Validation.requireText("resourceKind", resourceKind);
        Validation.requireText("resourceId", resourceId);
        Validation.requireText("provider", provider);
        Validation.requireText("reason", reason);
    }
}
