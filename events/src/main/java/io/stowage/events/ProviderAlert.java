package io.stowage.events;

import java.util.List;

/**
 * Something about a volume, pod or run needs attention: its time to live or a hard cap was reached (a release
 * through the gate was requested), or that release is blocked. Produced by provider-adapter on
 * {@link Topics#PROVIDER_ALERT}; the Kafka key is the resource's ({@link AssetIds#volume}, {@link AssetIds#pod}).
 *
 * @param resourceKind "volume", "pod" or "run"
 * @param resourceId   the volume id, pod id or run id
 * @param code         "ttl-reached", "cap-reached", "release-blocked"
 * @param detail       one human line
 * @param blockers     for "release-blocked": what blocks it, one line each as the gate named it (e.g.
 *                     "5 unaccounted-file: /vol/x/notes.txt ..."); empty otherwise
 * @param requestId    the release request it concerns, null when none
 */
public record ProviderAlert(EventMeta meta, String resourceKind, String resourceId, String code, String detail,
                            List<String> blockers, String requestId) implements StowageEvent {

    public static ProviderAlert of(EventMeta meta, String resourceKind, String resourceId, String code, String detail,
                                   List<String> blockers, String requestId) {
        ProviderAlert event = new ProviderAlert(meta, resourceKind, resourceId, code, detail, List.copyOf(blockers),
                requestId);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return switch (resourceKind) {
            case "volume" -> AssetIds.volume(resourceId);
            case "pod" -> AssetIds.pod(resourceId);
            default -> "run/" + resourceId;
        };
    }

    @Override
    public String topic() {
        return Topics.PROVIDER_ALERT;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("resourceKind", resourceKind);
        Validation.requireText("resourceId", resourceId);
        Validation.requireText("code", code);
        Validation.require(blockers != null, "blockers is missing");
    }
}
