package io.stowage.gatekeeper.messaging;

import io.smallrye.reactive.messaging.annotations.Blocking;
import io.stowage.events.EventCodec;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.StowageEvent;
import io.stowage.gatekeeper.GatekeeperConfig;
import io.stowage.gatekeeper.ledgerclient.LedgerAnswer;
import io.stowage.gatekeeper.ledgerclient.LedgerReader;
import io.stowage.gatekeeper.domain.GateAnswer;
import io.stowage.gatekeeper.domain.GateEvaluator;
import io.stowage.messaging.EventPublisher;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import java.time.Clock;

/**
 * Consumes {@code volume.release.requested}, reads the ledger's evidence (failing closed), runs
 * the gate over the local directory on a worker thread, and produces {@code gate.passed} or
 * {@code gate.denied} with the request's one decision id. A request the ledger already holds a
 * decision for (a redelivery) produces nothing: never a second, different decision. A request older
 * than {@code stowage.gatekeeper.max-request-age} is denied "stale-request" without evaluation. An
 * undecodable record throws, is nacked, and goes to the dead-letter topic.
 */
@ApplicationScoped
public class ReleaseRequestConsumer {
    private static final Logger LOG = Logger.getLogger(ReleaseRequestConsumer.class);

    private final LedgerReader ledger;
    private final GateEvaluator gate;
    private final EventPublisher sender;
    private final Clock clock;
    private final GatekeeperConfig config;

    ReleaseRequestConsumer(LedgerReader ledger, GateEvaluator gate, EventPublisher sender, Clock clock,
                           GatekeeperConfig config) {
        this.ledger = ledger;
        this.gate = gate;
        this.sender = sender;
        this.clock = clock;
        this.config = config;
    }

    /**
     * @param value the record's JSON bytes
     * @throws io.stowage.events.InvalidEventException when the record is not a valid ReleaseRequested
     */
    @Incoming("release-requested")
    @Blocking
    public void consume(byte[] value) {
        ReleaseRequested request = EventCodec.decode(ReleaseRequested.class, value);
        LOG.infof("evaluating %s event %s asset %s path %s dryRun=%s", request.topic(), request.meta().eventId(),
                request.assetId(), request.path(), request.dryRun());
        LedgerAnswer answer = ledger.read(request);
        if (answer.decided() != null) {
            LOG.infof("%s event %s asset %s is already decided by event %s in the ledger: nothing sent", request.topic(),
                    request.meta().eventId(), request.assetId(), answer.decided());
            return;
        }
        StowageEvent event;
        if (GateAnswer.stale(request, config.maxRequestAge(), clock)) {
            event = GateAnswer.staleDenied(request, config.maxRequestAge(), clock);
        } else if (answer.failure() != null) {
            event = GateAnswer.denied(request, answer.failure(), clock);
        } else {
            event = GateAnswer.of(request, gate.evaluate(request.path(), answer.evidence()), clock);
        }
        sender.send(event);
        LOG.infof("sent %s event %s asset %s caused by %s", event.topic(), event.meta().eventId(), event.assetId(),
                request.meta().eventId());
    }
}
