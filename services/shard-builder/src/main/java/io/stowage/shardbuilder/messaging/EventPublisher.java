package io.stowage.shardbuilder.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.messaging.OutgoingEvents;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;

/**
 * Sends shard-builder's events to Kafka: consumes {@link StowageEvent}s, produces records on
 * {@code shard.built} / {@code dataset.sealed} / {@code baseline.archived} with key = asset id, our CloudEvents headers and the
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

    @Inject
    @Channel("baseline-archived")
    MutinyEmitter<byte[]> baselineArchived;

    /**
     * Publishes the events in order, blocking the calling (worker) thread.
     *
     * @param timeout how long to wait for each acknowledgement
     * @throws RuntimeException when Kafka refuses a record or does not acknowledge it in time
     */
    public void publishAll(List<StowageEvent> events, Duration timeout) {
        for (StowageEvent event : events) {
            emitterFor(event).sendMessage(OutgoingEvents.message(event, SOURCE)).await().atMost(timeout);
            LOG.infof("published %s event %s for %s", event.topic(), event.meta().eventId(), event.assetId());
        }
    }

    private MutinyEmitter<byte[]> emitterFor(StowageEvent event) {
        return switch (event.topic()) {
            case Topics.SHARD_BUILT -> shardBuilt;
            case Topics.DATASET_SEALED -> datasetSealed;
            case Topics.BASELINE_ARCHIVED -> baselineArchived;
            default -> throw new IllegalArgumentException("shard-builder does not publish on " + event.topic());
        };
    }
}
