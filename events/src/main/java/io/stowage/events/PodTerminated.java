package io.stowage.events;

import java.math.BigDecimal;

/**
 * A pod was terminated (it no longer bills). Produced by provider-adapter on {@link Topics#POD_TERMINATED}.
 *
 * @param lifetimeSeconds seconds from creation to termination
 * @param costUsd         lifetime x cost per hour, US dollars
 * @param reason          why: "ttl", "cap", "operator"
 */
public record PodTerminated(EventMeta meta, String podId, String provider, long lifetimeSeconds, BigDecimal costUsd,
                            String reason) implements StowageEvent {

    public static PodTerminated of(EventMeta meta, String podId, String provider, long lifetimeSeconds,
                                   BigDecimal costUsd, String reason) {
        PodTerminated event = new PodTerminated(meta, podId, provider, lifetimeSeconds, costUsd, reason);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.pod(podId);
    }

    @Override
    public String topic() {
        return Topics.POD_TERMINATED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("podId", podId);
        Validation.requireText("provider", provider);
        Validation.requireNonNegative("lifetimeSeconds", lifetimeSeconds);
        Validation.require(costUsd != null && costUsd.signum() >= 0, "costUsd is missing or negative");
        Validation.requireText("reason", reason);
    }
}
