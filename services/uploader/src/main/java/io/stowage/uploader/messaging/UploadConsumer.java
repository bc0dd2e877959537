package io.stowage.uploader.messaging;

import io.smallrye.reactive.messaging.annotations.Blocking;
import io.stowage.events.EventCodec;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.messaging.EventPublisher;
import io.stowage.messaging.IncomingEvents;
import io.stowage.messaging.Outcome;
import io.stowage.uploader.app.UploadWork;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.util.concurrent.CompletionStage;

/**
 * Consumes {@code shard.built}, {@code dataset.sealed}, {@code checkpoint.published}, {@code baseline.archived} and
 * {@code model.published}
 * (consumer group {@code stowage-uploader}) and produces {@code object.uploaded} / {@code object.upload.failed}, in
 * the {@link IncomingEvents} shape. A record that is not a valid event (a name that breaks the key rule of
 * {@code Validation.segmentProblem} included) goes to {@code <topic>.dlq} with the reason. A record whose upload
 * failed permanently (the store refused it: 403, missing bucket, other 4xx; a file changed since publish or
 * unreadable; a manifest entry whose name is not a valid key) gets its {@code object.upload.failed} events
 * (permanent=true) published, then is dead-lettered once with {@code dead-letter-reason} naming the first such
 * failure ({@link UploadResults}). A transient failure (after the store's own retries) is tried again with backoff;
 * when the last attempt fails too, its events (permanent=false) are published and the record is dead-lettered.
 * The {@code object.uploaded} of each stored object is sent as soon as its upload ends, while the record's other files
 * are still going up, so the verifier starts on it at once; the outcome then publishes what was not sent yet (a retry
 * of the record finds those objects stored and says so again, {@code skipped}).
 */
@ApplicationScoped
public class UploadConsumer {
    private final UploadWork work;
    private final IncomingEvents incoming;
    private final EventPublisher publisher;

    UploadConsumer(UploadWork work, IncomingEvents incoming, EventPublisher publisher) {
        this.work = work;
        this.incoming = incoming;
        this.publisher = publisher;
    }

    /** A shard and its member manifest to upload; completes after the record is acked or nacked. */
    @Incoming("shard-built")
    @Blocking
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public CompletionStage<Void> onShardBuilt(Message<byte[]> record) {
        return handle(Topics.SHARD_BUILT, record);
    }

    /** A dataset manifest to upload; completes after the record is acked or nacked. */
    @Incoming("dataset-sealed")
    @Blocking
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public CompletionStage<Void> onDatasetSealed(Message<byte[]> record) {
        return handle(Topics.DATASET_SEALED, record);
    }

    /** A checkpoint step to upload file by file (and to the replica store for a key checkpoint). */
    @Incoming("checkpoint-published")
    @Blocking
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public CompletionStage<Void> onCheckpointPublished(Message<byte[]> record) {
        return handle(Topics.CHECKPOINT_PUBLISHED, record);
    }

    /** A baseline archive and its member manifest to upload ({@code stowage archive}); completes after ack or nack. */
    @Incoming("baseline-archived")
    @Blocking
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public CompletionStage<Void> onBaselineArchived(Message<byte[]> record) {
        return handle(Topics.BASELINE_ARCHIVED, record);
    }

    /** A model revision's files and model manifest to upload ({@code stowage model publish}); completes after ack or nack. */
    @Incoming("model-published")
    @Blocking
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public CompletionStage<Void> onModelPublished(Message<byte[]> record) {
        return handle(Topics.MODEL_PUBLISHED, record);
    }

    private CompletionStage<Void> handle(String topic, Message<byte[]> record) {
        return incoming.handle(record, topic, value -> EventCodec.decode(topic, value), this::upload);
    }

    // each stored object's event goes out as its upload ends; the outcome publishes the rest and decides the record
    private Outcome upload(StowageEvent event) {
        UploadWork.Uploaded uploaded = work.upload(event, result -> {
            publisher.send(result);
            return true;
        });
        return UploadResults.of(uploaded.events(), uploaded.unsent());
    }
}
