package io.stowage.gatekeeper.messaging;

import io.smallrye.reactive.messaging.annotations.Blocking;
import io.stowage.events.EventCodec;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.gatekeeper.GatekeeperConfig;
import io.stowage.gatekeeper.ledgerclient.LedgerAnswer;
import io.stowage.gatekeeper.storage.HashAheadTree;
import io.stowage.gatekeeper.ledgerclient.LedgerReader;
import io.stowage.gatekeeper.domain.DecisionJournal;
import io.stowage.gatekeeper.domain.GateAnswer;
import io.stowage.gatekeeper.domain.GateEvaluator;
import io.stowage.messaging.IncomingEvents;
import io.stowage.messaging.Outcome;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Consumes {@code volume.release.requested} in the {@link IncomingEvents} shape: reads the ledger's evidence
 * (failing closed), runs the gate over the local directory on a worker thread, and publishes {@code gate.passed} or
 * {@code gate.denied} with the request's one decision id (signed by the publisher's finishing step), preceded by the
 * {@code gate.inventory} parts of an inventory too large for the decision's record ({@link GateAnswer#records}). Before anything
 * else it asks the {@link DecisionTopicReader} whether a decision with that id is on the decision topics already (a
 * redelivery after a kill between send and commit, a rebalance, offsets reset): then it sends nothing, whatever the
 * ledger or the request's age says, so a request never gets a second, different decision; when the journal cannot
 * tell, the request is retried. A request the ledger already holds a decision for publishes nothing either. A request
 * older than {@code stowage.gatekeeper.max-request-age} and not decided before is denied "stale-request" without
 * evaluation. An undecodable record goes to {@code volume.release.requested.dlq} with
 * the reason; a failed or timed-out publish and any other exception are retried with backoff
 * ({@code stowage.redelivery.*}), then dead-lettered with the reason.
 */
@ApplicationScoped
public class ReleaseRequestConsumer {
    private static final Logger LOG = Logger.getLogger(ReleaseRequestConsumer.class);

    private final LedgerReader ledger;
    private final GateEvaluator gate;
    private final IncomingEvents incoming;
    private final Clock clock;
    private final GatekeeperConfig config;
    private final DecisionTopicReader journal;
    private final GateMetrics metrics;

    ReleaseRequestConsumer(LedgerReader ledger, GateEvaluator gate, IncomingEvents incoming, Clock clock,
                           GatekeeperConfig config, DecisionTopicReader journal, GateMetrics metrics) {
        this.metrics = metrics;
        this.journal = journal;
        this.ledger = ledger;
        this.gate = gate;
        this.incoming = incoming;
        this.clock = clock;
        this.config = config;
    }

    /** One release request; completes after the record is acked or nacked. */
    @Incoming("release-requested")
    @Blocking
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public CompletionStage<Void> consume(Message<byte[]> record) {
        return incoming.handle(record, Topics.VOLUME_RELEASE_REQUESTED,
                value -> EventCodec.decode(ReleaseRequested.class, value), this::decide);
    }

    private Outcome decide(ReleaseRequested request) {
        Optional<DecisionJournal.Entry> sent = journal.lookup(GateAnswer.decisionId(request));
        if (sent.isPresent()) {
            DecisionJournal.Entry first = sent.get();
            LOG.infof("%s event %s asset %s was decided before: decision %s is on %s at %d/%d; nothing sent",
                    request.topic(), request.meta().eventId(), request.assetId(), first.decisionId(), first.topic(),
                    first.partition(), first.offset());
            return Outcome.done(List.of());
        }
        LOG.infof("evaluating %s event %s asset %s path %s dryRun=%s", request.topic(), request.meta().eventId(),
                request.assetId(), request.path(), request.dryRun());
        StowageEvent decision;
        // the directory's files are hashed while the ledger is asked; a hash is used only if its file did not change
        try (HashAheadTree tree = HashAheadTree.start(gate.tree(), request.path(), gate::releasable)) {
            LedgerAnswer answer = ledger.read(request);
            if (answer.decided() != null) {
                LOG.infof("%s event %s asset %s is already decided by event %s in the ledger: nothing sent",
                        request.topic(), request.meta().eventId(), request.assetId(), answer.decided());
                return Outcome.done(List.of());
            }
            decision = decision(request, answer, tree);
        }
        metrics.record(decision);
        List<StowageEvent> records = GateAnswer.records(decision);
        if (records.size() > 1) {
            LOG.infof("the inventory of decision %s (%d files) travels in %d %s record(s) sent before it",
                    decision.meta().eventId(), ((io.stowage.events.GatePassed) decision).fileCount(), records.size() - 1,
                    Topics.GATE_INVENTORY);
        }
        LOG.infof("sending %s event %s asset %s caused by %s", decision.topic(), decision.meta().eventId(),
                decision.assetId(), request.meta().eventId());
        return Outcome.done(records);
    }

    private StowageEvent decision(ReleaseRequested request, LedgerAnswer answer, HashAheadTree tree) {
        if (GateAnswer.stale(request, config.maxRequestAge(), clock)) {
            return GateAnswer.staleDenied(request, config.maxRequestAge(), clock);
        }
        if (answer.failure() != null) {
            return GateAnswer.denied(request, answer.failure(), clock);
        }
        return GateAnswer.of(request, gate.evaluate(request.path(), answer.evidence(), tree), clock);
    }
}
