package io.stowage.shardbuilder.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.stowage.events.Topics;
import io.stowage.messaging.EventPublisher;
import io.stowage.shardbuilder.ShardBuilderConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import org.eclipse.microprofile.reactive.messaging.Channel;

import java.util.Map;

/**
 * Produces shard-builder's {@link EventPublisher} (source {@value #SOURCE}): {@code shard.built},
 * {@code dataset.sealed} and {@code baseline.archived}. Each send waits for the broker's acknowledgement (acks=all) at
 * most {@code stowage.shard-builder.publish-timeout} before the next, so the events of one dataset keep their order
 * and a caller knows they are durable.
 */
@ApplicationScoped
public class MessagingBeans {
    /** CloudEvents {@code source} of every event this service emits. */
    public static final String SOURCE = "/stowage/shard-builder";

    @Produces
    @ApplicationScoped
    EventPublisher publisher(@Channel("shard-built") MutinyEmitter<byte[]> shardBuilt,
                             @Channel("dataset-sealed") MutinyEmitter<byte[]> datasetSealed,
                             @Channel("baseline-archived") MutinyEmitter<byte[]> baselineArchived,
                             ShardBuilderConfig config) {
        return EventPublisher.of(SOURCE, Map.of(Topics.SHARD_BUILT, shardBuilt, Topics.DATASET_SEALED, datasetSealed,
                Topics.BASELINE_ARCHIVED, baselineArchived)).withTimeout(config.publishTimeout());
    }
}
