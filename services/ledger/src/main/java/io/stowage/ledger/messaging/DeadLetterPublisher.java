package io.stowage.ledger.messaging;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.Topics;
import io.stowage.ledger.domain.KafkaPosition;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import java.nio.charset.StandardCharsets;

/**
 * Sends a refused record (undecodable, or not storable after the retries) to {@code <topic>.dlq} with its
 * original key, value and headers plus {@code dead-letter-reason} and {@code dead-letter-topic}; the batch
 * consumer does this itself because SmallRye's dead-letter strategy works on single records, not batches.
 */
@ApplicationScoped
public class DeadLetterPublisher {
    private final MutinyEmitter<byte[]> out;

    @Inject
    public DeadLetterPublisher(@Channel("ledger-dead-letter-out") MutinyEmitter<byte[]> out) {
        this.out = out;
    }

    /** @return completes when the broker acknowledged the dead letter; fails when it could not be sent */
    public Uni<Void> send(KafkaPosition at, byte[] value, Throwable reason) {
        RecordHeaders headers = new RecordHeaders();
        at.headers().forEach((name, text) -> {
            if (!name.equals(CloudEventHeaders.DLQ_REASON) && !name.equals(CloudEventHeaders.DLQ_TOPIC)) {
                headers.add(name, text.getBytes(StandardCharsets.UTF_8));
            }
        });
        String why = reason.getMessage() != null ? reason.getMessage() : reason.getClass().getName();
        headers.add(CloudEventHeaders.DLQ_REASON, why.getBytes(StandardCharsets.UTF_8));
        headers.add(CloudEventHeaders.DLQ_TOPIC, at.topic().getBytes(StandardCharsets.UTF_8));
        OutgoingKafkaRecordMetadata<String> metadata = OutgoingKafkaRecordMetadata.<String>builder()
                .withTopic(Topics.dlq(at.topic())).withKey(at.key()).withHeaders(headers).build();
        return out.sendMessage(Message.of(value == null ? new byte[0] : value, Metadata.of(metadata)));
    }
}
