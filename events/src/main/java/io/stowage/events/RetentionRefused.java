package io.stowage.events;

import java.util.List;

/**
 * The retention executor refused part or all of a retention decision and deleted nothing of what it refused: a key
 * outside the step's {@code checkpoints/<experiment>/<run>/<step>/} prefix or not the ledger's object of that step, a
 * step the re-evaluation from the ledger keeps (with the reasons, e.g. latest, newest-verified, pinned), a decision
 * that is not authentic, a store that could not confirm a deletion. Produced by the provider-adapter on
 * {@link Topics#RETENTION_REFUSED}, caused by the {@code retention.decided} event; consumed by the ledger.
 *
 * @param decisionId the event id of the refused decision
 * @param refusals   one line each: the step (null for the whole decision), the key (null for the whole step), why
 */
public record RetentionRefused(EventMeta meta, String decisionId, String experiment, String run,
                               List<Refusal> refusals) implements StowageEvent {

    /** One refusal. */
    public record Refusal(Long step, String key, String reason) {
    }

    public static RetentionRefused of(EventMeta meta, String decisionId, String experiment, String run,
                                      List<Refusal> refusals) {
        RetentionRefused event = new RetentionRefused(meta, decisionId, experiment, run, List.copyOf(refusals));
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.run(experiment, run);
    }

    @Override
    public String topic() {
        return Topics.RETENTION_REFUSED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("decisionId", decisionId);
        Validation.requireSegment("experiment", experiment);
        Validation.requireSegment("run", run);
        Validation.require(refusals != null && !refusals.isEmpty(), "refusals is missing");
        refusals.forEach(r -> Validation.requireText("reason", r.reason()));
    }
}
