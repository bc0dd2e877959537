package io.stowage.events;

import java.util.List;

/**
 * At least one gate condition failed for a release request; nothing is deleted. Produced by
 * gatekeeper on {@link Topics#GATE_DENIED}; consumed by the ledger and shown by the CLI.
 *
 * @param failed     every check that failed, at least one; each detail is one bounded line
 * @param conditions the five conditions, each passed or failed, with its reason and the ledger event ids that
 *                   prove it (all five failed "not evaluated" when the ledger could not be read); empty only in
 *                   decisions written before this field existed
 */
public record GateDenied(EventMeta meta, String requestId, String path, boolean dryRun,
                         List<FailedCondition> failed, List<ConditionResult> conditions) implements StowageEvent {

    /** A denial with its five condition results. */
    public static GateDenied of(EventMeta meta, String requestId, String path, boolean dryRun,
                                List<FailedCondition> failed, List<ConditionResult> conditions) {
        GateDenied event = new GateDenied(meta, requestId, path, dryRun, List.copyOf(failed), List.copyOf(conditions));
        event.validate();
        return event;
    }

    /** A denial without condition results (the shape before they existed). */
    public static GateDenied of(EventMeta meta, String requestId, String path, boolean dryRun,
                                List<FailedCondition> failed) {
        return of(meta, requestId, path, dryRun, failed, List.of());
    }

    public GateDenied {
        conditions = conditions == null ? List.of() : conditions;
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
