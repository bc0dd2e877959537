package io.stowage.gatekeeper.domain;

import io.stowage.events.ConditionResult;
import io.stowage.events.EventMeta;
import io.stowage.events.FailedCondition;
import io.stowage.events.GateDenied;
import io.stowage.events.GateInventory;
import io.stowage.events.GatePassed;
import io.stowage.events.InventoryEntry;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.StowageEvent;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Turns a release request and the gate's decision into the one event to emit: {@link GatePassed} or
 * {@link GateDenied}, whose event id derives from the request's event id ({@link #decisionId}), so one request
 * has one decision id however often it is delivered.
 */
public final class GateAnswer {
    private GateAnswer() {
    }

    /**
     * @return the event id of the decision on {@code request}: the name-based (version 3) UUID of
     *         {@code "gate-decision:" + request event id}; the same for every delivery of the request
     */
    public static String decisionId(ReleaseRequested request) {
        return UUID.nameUUIDFromBytes(("gate-decision:" + request.meta().eventId()).getBytes(StandardCharsets.UTF_8))
                .toString();
    }

    /** @return GatePassed (same path and dry-run flag, the decision's assets, conditions, inventory and fingerprint) or GateDenied (with the conditions) */
    public static StowageEvent of(ReleaseRequested request, GateDecision decision, Clock clock) {
        EventMeta meta = meta(request, clock);
        if (decision.passed()) {
            return GatePassed.of(meta, request.requestId(), request.path(), request.dryRun(), decision.assets(),
                    decision.fingerprint(), decision.conditions(), decision.inventory());
        }
        return GateDenied.of(meta, request.requestId(), request.path(), request.dryRun(), decision.failed(),
                decision.conditions(), decision.assets());
    }

    /**
     * The records that carry a decision, in the order they must be sent (each acknowledged before the next): the
     * decision alone, or, for a passing decision whose inventory does not fit one record
     * ({@link GateInventory#fitsInline}), its {@link GateInventory} parts first and then the decision by reference
     * (no inline entries, the number of parts, the same digest and event id). So the decision a consumer reads is
     * never larger than a few KiB whatever the directory holds, and its parts are on the broker before it.
     *
     * @param decision what {@link #of} or {@link #denied} returned
     * @return at least one event; the last is the decision
     */
    public static List<StowageEvent> records(StowageEvent decision) {
        if (!(decision instanceof GatePassed passed) || GateInventory.fitsInline(passed.inventory())) {
            return List.of(decision);
        }
        List<List<InventoryEntry>> runs = GateInventory.split(passed.inventory());
        GatePassed byReference = passed.byReference(runs.size());
        List<StowageEvent> records = new ArrayList<>(GateInventory.partsOf(byReference, runs));
        records.add(byReference);
        return List.copyOf(records);
    }

    /** @return GateDenied naming one failure that stopped the gate before it could evaluate (condition 0) */
    public static GateDenied denied(ReleaseRequested request, FailedCondition failure, Clock clock) {
        return GateDenied.of(meta(request, clock), request.requestId(), request.path(),
                request.dryRun(), List.of(failure), ConditionResult.noneEvaluated(failure.code() + ": " + failure.detail()));
    }

    /**
     * @param maxAge {@code stowage.gatekeeper.max-request-age}
     * @return true when the request's event time (its producer's clock) is more than {@code maxAge} before now
     */
    public static boolean stale(ReleaseRequested request, Duration maxAge, Clock clock) {
        return request.meta().time().plus(maxAge).isBefore(clock.instant());
    }

    /** @return GateDenied "stale-request" (condition 0) for a request older than {@code maxAge}: never evaluated */
    public static GateDenied staleDenied(ReleaseRequested request, Duration maxAge, Clock clock) {
        GateCheck check = GateCheck.STALE_REQUEST;
        return denied(request, new FailedCondition(check.condition(), check.code(), check.label() + ": event "
                + request.meta().eventId() + " sent at " + request.meta().time() + ", more than " + maxAge.toSeconds()
                + " s ago: send a new request"), clock);
    }

    private static EventMeta meta(ReleaseRequested request, Clock clock) {
        return EventMeta.causedBy(request, decisionId(request), clock);
    }
}
