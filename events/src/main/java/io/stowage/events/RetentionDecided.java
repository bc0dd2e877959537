package io.stowage.events;

import java.time.Instant;
import java.util.List;

/**
 * A retention decision for one run, evaluated from the ledger at apply time: the policy it applied, the step
 * {@code latest.json} named, and every step it expires with that step's objects per store. Produced by the
 * provider-adapter ({@code POST /api/retention/apply}) on {@link Topics#RETENTION_DECIDED}, signed like a gate decision
 * (HMAC-SHA256 of the exact value bytes in the {@link CloudEventHeaders#SIGNATURE} header, {@link GateSignature});
 * consumed by the ledger (the record of the decision) and executed by the provider-adapter's retention executor, which
 * re-evaluates it and deletes nothing it cannot confirm. Key objects are not validated here on purpose: a decision
 * naming a key outside its step reaches the executor, which refuses it and records why.
 *
 * @param policy      the policy applied, field by field (null = rule off)
 * @param latestStep  the step the run's latest.json named at evaluation; null when it had none
 * @param evaluatedAt when the rules were evaluated (TTLs are measured at it)
 * @param planSha256  SHA-256 of the plan (canonical JSON) the decision came from
 * @param expire      every step to expire, ascending; may be empty (nothing to do)
 * @param requestedBy who asked (the operator token's name)
 */
public record RetentionDecided(EventMeta meta, String experiment, String run, Policy policy, Long latestStep,
                               Instant evaluatedAt, String planSha256, List<ExpiringStep> expire,
                               String requestedBy) implements StowageEvent {

    /**
     * A retention policy as fields, the shape of the capsule's {@code retention} object.
     *
     * @param mode         "min" or "max"; null with keep-best off
     * @param keepInterval an ISO-8601 duration, e.g. PT6H: one verified step per window of that length; null = off
     * @param temporaryTtl an ISO-8601 duration, e.g. P7D; null = off
     * @param coldAfter    an ISO-8601 duration, e.g. P30D: older kept steps belong in {@code coldStorageClass}; null = off
     * @param coldStorageClass an S3 storage class such as STANDARD_IA; null = STANDARD_IA when coldAfter is set
     */
    public record Policy(Integer keepLast, Integer keepBest, String metric, String mode, Integer keepEvery,
                         String keepInterval, String temporaryTtl, Boolean tagsPin, String coldAfter,
                         String coldStorageClass) {
        /** A policy without storage classes (the shape before they existed). */
        public Policy(Integer keepLast, Integer keepBest, String metric, String mode, Integer keepEvery,
                      String keepInterval, String temporaryTtl, Boolean tagsPin) {
            this(keepLast, keepBest, metric, mode, keepEvery, keepInterval, temporaryTtl, tagsPin, null, null);
        }
    }

    /** One step to expire and the objects (per store) it holds in the ledger. */
    public record ExpiringStep(long step, List<CheckpointExpired.ExpiredObject> objects) {
        public ExpiringStep {
            objects = objects == null ? null : List.copyOf(objects);
        }
    }

    public static RetentionDecided of(EventMeta meta, String experiment, String run, Policy policy, Long latestStep,
                                      Instant evaluatedAt, String planSha256, List<ExpiringStep> expire,
                                      String requestedBy) {
        RetentionDecided event = new RetentionDecided(meta, experiment, run, policy, latestStep, evaluatedAt, planSha256,
                List.copyOf(expire), requestedBy);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.run(experiment, run);
    }

    @Override
    public String topic() {
        return Topics.RETENTION_DECIDED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireSegment("experiment", experiment);
        Validation.requireSegment("run", run);
        Validation.require(policy != null, "policy is missing");
        Validation.require(evaluatedAt != null, "evaluatedAt is missing");
        Validation.requireSha256("planSha256", planSha256);
        Validation.require(expire != null, "expire is missing");
        for (ExpiringStep s : expire) {
            Validation.requireNonNegative("step", s.step());
            Validation.require(s.objects() != null && !s.objects().isEmpty(), "step " + s.step() + " has no objects");
            s.objects().forEach(o -> {
                Validation.requireText("key", o.key());
                Validation.requireText("store", o.store());
            });
        }
        Validation.requireText("requestedBy", requestedBy);
    }
}
