package io.stowage.provideradapter.messaging;

import io.smallrye.reactive.messaging.annotations.Blocking;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.GatePassed;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.messaging.IncomingEvents;
import io.stowage.messaging.Outcome;
import io.stowage.provideradapter.domain.OutcomeDelivery;
import io.stowage.provideradapter.domain.ReleaseHandler;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Consumes {@code gate.passed} in the {@link IncomingEvents} shape: hands the record's raw value and
 * {@code stowage-signature} header to {@link OutcomeDelivery#release} on a worker thread (the {@link ReleaseHandler}'s
 * authentication first, then the journaled re-check and release, at most once per request), which sends
 * {@code volume.released} or {@code volume.release.failed} itself, not through the shape's publish: the journal
 * marks an outcome sent only once the broker acknowledged it, and the journal's timer cannot send it a second time
 * between the release and its send. Authentic dry runs are logged and skipped. An
 * undecodable record goes to {@code gate.passed.dlq} with the reason. A journaled outcome whose send fails does not
 * fail the record (it is acked): the journal sends it again (same event id) at start and on a timer. A failure that
 * nothing else would repeat (the send of a forged decision's refusal, a journal write after APPROVED) is retried
 * with backoff ({@code stowage.redelivery.*}), then dead-lettered with the reason.
 */
@ApplicationScoped
public class GatePassedConsumer {
    private static final Logger LOG = Logger.getLogger(GatePassedConsumer.class);

    private final OutcomeDelivery delivery;
    private final IncomingEvents incoming;

    GatePassedConsumer(OutcomeDelivery delivery, IncomingEvents incoming) {
        this.delivery = delivery;
        this.incoming = incoming;
    }

    /** One gate decision (key = asset id, value = the GatePassed JSON, headers incl. the signature). */
    @Incoming("gate-passed")
    @Blocking
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public CompletionStage<Void> consume(Message<byte[]> record) {
        return incoming.handle(record, Topics.GATE_PASSED, value -> EventCodec.decode(GatePassed.class, value),
                passed -> release(passed, record.getPayload(), signature(record)));
    }

    private Outcome release(GatePassed passed, byte[] value, String signature) {
        OutcomeDelivery.Released released = delivery.release(value, signature);
        Optional<StowageEvent> outcome = released.outcome();
        if (outcome.isEmpty()) {
            LOG.infof("not executed (dry run): gate.passed event %s asset %s", passed.meta().eventId(), passed.assetId());
        } else if (released.acknowledged()) {
            StowageEvent event = outcome.get();
            LOG.infof("sent %s event %s asset %s caused by gate.passed event %s", event.topic(), event.meta().eventId(),
                    event.assetId(), event.meta().causationId());
        }
        return Outcome.done(List.of());
    }

    private static String signature(Message<byte[]> record) {
        Header header = record.getMetadata(IncomingKafkaRecordMetadata.class)
                .map(metadata -> metadata.getHeaders().lastHeader(CloudEventHeaders.SIGNATURE)).orElse(null);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
