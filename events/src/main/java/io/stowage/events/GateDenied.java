package io.stowage.events;

import java.util.List;

/**
 * At least one gate condition failed for a release request; nothing is deleted. Produced by
 * gatekeeper on {@link Topics#GATE_DENIED}; consumed by the ledger and shown by the CLI.
 *
 * @param failed every condition that failed, at least one; each detail is one bounded line
 */
public record GateDenied(EventMeta meta, String requestId, String path, boolean dryRun,
                         List<FailedCondition> failed) implements StowageEvent {

    public static GateDenied of(EventMeta meta, String requestId, String path, boolean dryRun,
                                List<FailedCondition> failed) {
        GateDenied event = new GateDenied(meta, requestId, path, dryRun, List.copyOf(failed));
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.release(requestId);
    }

    @Override
    public String topic() {
        return Topics.GATE_DENIED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("requestId", requestId);
        Validation.requireText("path", path);
        Validation.require(failed != null && !failed.isEmpty(), "failed is empty");
    }
}
