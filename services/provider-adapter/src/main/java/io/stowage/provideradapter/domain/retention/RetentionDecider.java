package io.stowage.provideradapter.domain.retention;

import io.stowage.cli.retention.domain.RetentionPolicies;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.stowage.cli.retention.RetentionPlan;
import io.stowage.cli.retention.RetentionPlanner;
import io.stowage.cli.retention.domain.RetentionPolicy;
import io.stowage.events.AssetIds;
import io.stowage.events.CheckpointExpired.ExpiredObject;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.GateSignature;
import io.stowage.events.RetentionDecided;
import io.stowage.events.Sha256;
import io.stowage.events.ledger.CheckpointStepEvidence;
import io.stowage.events.ledger.RunCheckpoints;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Evaluates a run's retention now, from the ledger and latest.json (never from memory), with the same planner as
 * {@code stowage retention plan}, and produces the signed decision: a {@link RetentionDecided} naming every expired
 * step with the ledger's objects of it, its exact value bytes and their HMAC under the gate's signing key.
 */
public final class RetentionDecider {
    private final RetentionSources sources;
    private final GateSignature signature;
    private final Clock clock;

    public RetentionDecider(RetentionSources sources, GateSignature signature, Clock clock) {
        this.sources = sources;
        this.signature = signature;
        this.clock = clock;
    }

    /**
     * @param requestedBy the operator token's name
     * @return the plan and the signed decision
     * @throws IOException when the ledger or latest.json cannot be read
     */
    public Signed decide(String experiment, String run, RetentionPolicy policy, String requestedBy) throws IOException {
        RunCheckpoints steps = sources.steps(experiment, run);
        Long latest = sources.latestStep(experiment, run);
        RetentionPlan plan = RetentionPlanner.plan(steps, policy, latest, clock.instant());
        return sign(experiment, run, policy, requestedBy, steps, latest, plan);
    }

    /**
     * The plan alone, evaluated now from the ledger and latest.json exactly as {@link #decide} evaluates it; nothing is
     * signed, sent or deleted.
     *
     * @return every stored step with keep or expire and the rules that keep it ({@code monthlyUsdFreed} null)
     * @throws IOException when the ledger or latest.json cannot be read
     */
    public RetentionPlan plan(String experiment, String run, RetentionPolicy policy) throws IOException {
        return RetentionPlanner.plan(sources.steps(experiment, run), policy, sources.latestStep(experiment, run),
                clock.instant());
    }

    private Signed sign(String experiment, String run, RetentionPolicy policy, String requestedBy, RunCheckpoints steps,
                        Long latest, RetentionPlan plan) {
        List<RetentionDecided.ExpiringStep> expire = new ArrayList<>();
        for (RetentionPlan.Step s : plan.expired()) {
            CheckpointStepEvidence evidence = steps.steps().stream().filter(e -> e.step() == s.step()).findFirst().orElseThrow();
            expire.add(new RetentionDecided.ExpiringStep(s.step(), evidence.asset().objects().stream()
                    .map(o -> new ExpiredObject(o.store(), o.bucket(), o.key(), o.bytes())).toList()));
        }
        RetentionDecided decided = RetentionDecided.of(EventMeta.first(AssetIds.run(experiment, run), clock), experiment,
                run, RetentionPolicies.fields(policy), latest, plan.evaluatedAt(), planSha256(plan), expire, requestedBy);
        byte[] value = EventCodec.encode(decided);
        return new Signed(plan, decided, value, signature.sign(value));
    }

    private static String planSha256(RetentionPlan plan) {
        try {
            return Sha256.of(EventCodec.mapper().writeValueAsBytes(plan));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise the retention plan", e);
        }
    }

    /**
     * A decision as it is sent: the plan it came from, the event, its exact value bytes and their hex HMAC.
     */
    public record Signed(RetentionPlan plan, RetentionDecided decided, byte[] value, String signature) {
    }
}
