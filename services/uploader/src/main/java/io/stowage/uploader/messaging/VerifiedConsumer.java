package io.stowage.uploader.messaging;

import io.smallrye.reactive.messaging.annotations.Blocking;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.stowage.events.EventCodec;
import io.stowage.events.ObjectVerified;
import io.stowage.events.Topics;
import io.stowage.messaging.IncomingEvents;
import io.stowage.messaging.Outcome;
import io.stowage.uploader.app.LatestPointerWork;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Consumes {@code object.verified} (a consumer group per uploader instance, {@code stowage-uploader-verified-<instance>}:
 * every instance reads every result, since the steps waiting for them are kept by the instance that consumed their
 * {@code checkpoint.published}) and hands each result to {@link LatestPointerWork}, which writes a run's {@code latest} pointer once a step is fully verified. Produces no
 * event. An invalid record goes to {@code object.verified.dlq}; a failure to write the pointer (the store, the state
 * directory) is tried again with backoff ({@link IncomingEvents}), then dead-lettered with the reason.
 */
@ApplicationScoped
public class VerifiedConsumer {
    private final LatestPointerWork work;
    private final IncomingEvents incoming;

    VerifiedConsumer(LatestPointerWork work, IncomingEvents incoming) {
        this.work = work;
        this.incoming = incoming;
    }

    /**
     * One verification result; completes after the record is acked or nacked. A record whose key (the asset id every
     * service sends as the key) names no checkpoint step this instance waits for is acked without being decoded:
     * every instance reads every result, and most are for datasets, other instances' steps or steps done; the ledger
     * checks and dead-letters an invalid record whichever service reads it.
     */
    @Incoming("object-verified")
    @Blocking
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public CompletionStage<Void> onVerified(Message<byte[]> record) {
        Object key = record.getMetadata(IncomingKafkaRecordMetadata.class).map(IncomingKafkaRecordMetadata::getKey)
                .orElse(null);
        if (key instanceof String assetId && !work.waitsFor(assetId)) {
            return record.ack();
        }
        return incoming.handle(record, Topics.OBJECT_VERIFIED,
                value -> EventCodec.decode(ObjectVerified.class, value), this::writePointer);
    }

    private Outcome writePointer(ObjectVerified event) {
        work.onVerified(event);
        return Outcome.done(List.of());
    }
}
