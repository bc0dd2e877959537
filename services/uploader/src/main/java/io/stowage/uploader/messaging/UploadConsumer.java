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
 * Consumes {@code shard.built}, {@code dataset.sealed}, {@code checkpoint.published} and {@code baseline.archived} (consumer
 * group {@code stowage-uploader}) and produces {@code object.uploaded} / {@code object.upload.failed}.
 * A record that is not a valid event (a name that breaks the key rule of {@code Validation.segmentProblem}
 * included) is nacked, so the channel sends it to {@code <topic>.dlq} with the reason. A record whose
 * upload failed permanently (the store refused it: 403, missing bucket, other 4xx; a file changed since
 * publish or unreadable; a manifest entry whose name is not a valid key) is nacked too, after its
 * {@code object.upload.failed} events (permanent=true) were acknowledged: the same dead-letter channel then
 * writes it, once, to {@code <topic>.dlq} with {@code dead-letter-reason} naming the first such failure. A
 * transient failure (after the store's retries) is reported with permanent=false and acknowledged, not
 * dead-lettered. Store I/O runs on the worker pool, never on the event loop; the record is acknowledged
 * only after every resulting event was acknowledged by the broker.
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

    /** A baseline archive and its member manifest to upload ({@code stowage archive}); completes after ack or nack. */
    @Incoming("baseline-archived")
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public Uni<Void> onBaselineArchived(Message<byte[]> record) {
        return handle(Topics.BASELINE_ARCHIVED, record);
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
                .chain(results -> publisher.publishAll(results).replaceWith(results))
                .chain(results -> {
                    PermanentUploadFailure permanent = PermanentUploadFailure.of(results);
                    if (permanent == null) {
                        return Uni.createFrom().completionStage(record.ack());
                    }
                    LOG.warnf("event %s %s asset %s sent to %s: %s", event.meta().eventId(), topic, event.assetId(),
                            Topics.dlq(topic), permanent.getMessage());
                    return Uni.createFrom().completionStage(record.nack(permanent));
                })
                .onFailure().recoverWithUni(e -> {
                    LOG.errorf(e, "event %s %s asset %s failed", event.meta().eventId(), topic, event.assetId());
                    return Uni.createFrom().completionStage(record.nack(e));
                });
    }
}
