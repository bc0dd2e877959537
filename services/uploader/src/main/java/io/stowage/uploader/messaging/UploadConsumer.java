package io.stowage.uploader.messaging;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.stowage.events.EventCodec;
import io.stowage.events.InvalidEventException;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.uploader.storage.UploadWork;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Consumes {@code shard.built}, {@code dataset.sealed} and {@code checkpoint.published} (consumer
 * group {@code stowage-uploader}) and produces {@code object.uploaded} / {@code object.upload.failed}.
 * A record that is not a valid event is nacked, so the channel sends it to {@code <topic>.dlq}.
 * Store I/O runs on the worker pool, never on the event loop; the record is acknowledged only after
 * every resulting event was acknowledged by the broker.
 */
@ApplicationScoped
public class UploadConsumer {
    private static final Logger LOG = Logger.getLogger(UploadConsumer.class);
    private final UploadWork work;
    private final EventPublisher publisher;

    UploadConsumer(UploadWork work, EventPublisher publisher) {
        this.work = work;
        this.publisher = publisher;
    }

    /** A shard and its member manifest to upload; completes after the record is acked or nacked. */
    @Incoming("shard-built")
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public Uni<Void> onShardBuilt(Message<byte[]> record) {
        return handle(Topics.SHARD_BUILT, record);
    }

    /** A dataset manifest to upload; completes after the record is acked or nacked. */
    @Incoming("dataset-sealed")
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public Uni<Void> onDatasetSealed(Message<byte[]> record) {
        return handle(Topics.DATASET_SEALED, record);
    }

    /** A checkpoint step to upload file by file (and to the replica store for a key checkpoint). */
    @Incoming("checkpoint-published")
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public Uni<Void> onCheckpointPublished(Message<byte[]> record) {
        return handle(Topics.CHECKPOINT_PUBLISHED, record);
    }

    private Uni<Void> handle(String topic, Message<byte[]> record) {
        StowageEvent event;
        try {
            event = EventCodec.decode(topic, record.getPayload());
        } catch (InvalidEventException e) {
            LOG.warnf("invalid record on %s sent to %s: %s", topic, Topics.dlq(topic), e.getMessage());
            return Uni.createFrom().completionStage(record.nack(e));
        }
        LOG.infof("event %s %s asset %s received", event.meta().eventId(), topic, event.assetId());
        return Uni.createFrom().item(() -> work.upload(event))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .chain(publisher::publishAll)
                .chain(() -> Uni.createFrom().completionStage(record.ack()))
                .onFailure().recoverWithUni(e -> {
                    LOG.errorf(e, "event %s %s asset %s failed", event.meta().eventId(), topic, event.assetId());
                    return Uni.createFrom().completionStage(record.nack(e));
                });
    }
}
