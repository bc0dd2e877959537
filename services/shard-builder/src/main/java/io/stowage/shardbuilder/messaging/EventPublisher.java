package io.stowage.shardbuilder.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends shard-builder's events to Kafka: consumes {@link StowageEvent}s, produces records on
 * {@code shard.built} / {@code dataset.sealed} with key = asset id, our CloudEvents headers and the
 * event JSON as value. Each send waits for the broker's acknowledgement (acks=all) before the next,
 * so the events of one dataset keep their order and a caller knows they are durable.
 */
@ApplicationScoped
public class EventPublisher {
    /** CloudEvents {@code source} of every event this service emits. */
    public static final String SOURCE = "/stowage/shard-builder";
    private static final Logger LOG = Logger.getLogger(EventPublisher.class);

    @Inject
    @Channel("shard-built")
    MutinyEmitter<byte[]> shardBuilt;

    @Inject
    @Channel("dataset-sealed")
    MutinyEmitter<byte[]> datasetSealed;

    /**
     * Publishes the events in order, blocking the calling (worker) thread.
     *
     * @param timeout how long to wait for each acknowledgement
     * @throws RuntimeException when Kafka refuses a record or does not acknowledge it in time
     */
    public void publishAll(List<StowageEvent> events, Duration timeout) {
        for (StowageEvent event : events) {
            emitterFor(event).sendMessage(toMessage(event)).await().atMost(timeout);
            LOG.infof("published %s event %s for %s", event.topic(), event.meta().eventId(), event.assetId());
        }
    }

    /** @return the record value (event JSON) with key and CloudEvents headers as Kafka metadata */
    static Message<byte[]> toMessage(StowageEvent event) {
        List<RecordHeader> headers = new ArrayList<>();
        CloudEventHeaders.of(event, SOURCE).forEach((name, value) ->
                headers.add(new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8))));
        OutgoingKafkaRecordMetadata<String> metadata = OutgoingKafkaRecordMetadata.<String>builder()
                .withKey(event.assetId())
                .withHeaders(headers)
                .build();
        return Message.of(EventCodec.encode(event)).addMetadata(metadata);
    }

    private MutinyEmitter<byte[]> emitterFor(StowageEvent event) {
        return switch (event.topic()) {
            case Topics.SHARD_BUILT -> shardBuilt;
            case Topics.DATASET_SEALED -> datasetSealed;
            default -> throw new IllegalArgumentException("shard-builder does not publish on " + event.topic());
        };
    }
}
