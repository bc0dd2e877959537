package io.stowage.gatekeeper.domain;

import io.stowage.events.ConditionResult;
import io.stowage.events.EventMeta;
import io.stowage.events.FailedCondition;
import io.stowage.events.GateDenied;
import io.stowage.events.GatePassed;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.StowageEvent;

import java.time.Clock;
import java.util.List;

/** Turns a release request and the gate's decision into the one event to emit: {@link GatePassed} or {@link GateDenied}. */
public final class GateAnswer {
    private GateAnswer() {
    }

    /** @return GatePassed (same path and dry-run flag, the decision's assets, conditions, inventory and fingerprint) or GateDenied (with the conditions) */
    public static StowageEvent of(ReleaseRequested request, GateDecision decision, Clock clock) {
        EventMeta meta = EventMeta.causedBy(request, clock);
        if (decision.passed()) {
            return GatePassed.of(meta, request.requestId(), request.path(), request.dryRun(), decision.assets(),
                    decision.fingerprint(), decision.conditions(), decision.inventory());
        }
        return GateDenied.of(meta, request.requestId(), request.path(), request.dryRun(), decision.failed(),
                decision.conditions(), decision.assets());
    }

    /** @return GateDenied naming one failure that stopped the gate before it could evaluate (condition 0) */
    public static GateDenied denied(ReleaseRequested request, FailedCondition failure, Clock clock) {
        return GateDenied.of(EventMeta.causedBy(request, clock), request.requestId(), request.path(),
                request.dryRun(), List.of(failure), ConditionResult.noneEvaluated(failure.code() + ": " + failure.detail()));
    }
}
