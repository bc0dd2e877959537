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
 * @param assets     the asset ids the ledger knew touching the directory (sorted; empty when none or unknown)
 */
public record GateDenied(EventMeta meta, String requestId, String path, boolean dryRun,
                         List<FailedCondition> failed, List<ConditionResult> conditions, List<String> assets)
        implements StowageEvent {

    /** A denial with its five condition results and the assets it examined. */
    public static GateDenied of(EventMeta meta, String requestId, String path, boolean dryRun,
                                List<FailedCondition> failed, List<ConditionResult> conditions, List<String> assets) {
        GateDenied event = new GateDenied(meta, requestId, path, dryRun, List.copyOf(failed), List.copyOf(conditions),
                List.copyOf(assets));
        event.validate();
        return event;
    }

    /** A denial with its five condition results, no asset named. */
    public static GateDenied of(EventMeta meta, String requestId, String path, boolean dryRun,
                                List<FailedCondition> failed, List<ConditionResult> conditions) {
        return of(meta, requestId, path, dryRun, failed, conditions, List.of());
    }

    /** A denial without condition results (the shape before they existed). */
    public static GateDenied of(EventMeta meta, String requestId, String path, boolean dryRun,
                                List<FailedCondition> failed) {
        return of(meta, requestId, path, dryRun, failed, List.of(), List.of());
    }

    public GateDenied {
        conditions = conditions == null ? List.of() : conditions;
        assets = assets == null ? List.of() : assets;
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
