package io.stowage.provideradapter.messaging;

import io.smallrye.reactive.messaging.annotations.Blocking;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.StowageEvent;
import io.stowage.messaging.EventPublisher;
import io.stowage.provideradapter.domain.ReleaseHandler;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Consumes {@code gate.passed} records, hands their raw value and {@code stowage-signature} header to
 * the {@link ReleaseHandler} on a worker thread (authentication first, then the re-check and the
 * release), and produces {@code volume.released} or {@code volume.release.failed}; authentic dry runs
 * are logged and skipped. An undecodable record throws, is nacked, and goes to the dead-letter topic.
 */
@ApplicationScoped
public class GatePassedConsumer {
    private static final Logger LOG = Logger.getLogger(GatePassedConsumer.class);

    private final ReleaseHandler handler;
    private final EventPublisher sender;

    GatePassedConsumer(ReleaseHandler handler, EventPublisher sender) {
        this.handler = handler;
        this.sender = sender;
    }

    /**
     * @param record the Kafka record: key = asset id, value = the GatePassed JSON bytes, headers incl. the signature
     * @throws io.stowage.events.InvalidEventException when the value is not a valid GatePassed
     */
    @Incoming("gate-passed")
    @Blocking
    public void consume(ConsumerRecord<String, byte[]> record) {
        Header signature = record.headers().lastHeader(CloudEventHeaders.SIGNATURE);
        String eventId = header(record, CloudEventHeaders.ID);
        Optional<StowageEvent> outcome = handler.handle(record.value(),
                signature == null ? null : new String(signature.value(), StandardCharsets.UTF_8));
        if (outcome.isEmpty()) {
            LOG.infof("not executed (dry run or already executed): gate.passed event %s asset %s", eventId, record.key());
            return;
        }
        StowageEvent event = outcome.get();
        sender.send(event);
        LOG.infof("sent %s event %s asset %s caused by gate.passed event %s", event.topic(), event.meta().eventId(),
                event.assetId(), event.meta().causationId());
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
