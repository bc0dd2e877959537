package io.stowage.uploader.messaging;

import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.stowage.events.EventCodec;
import io.stowage.events.ObjectVerified;
import io.stowage.events.Topics;
import io.stowage.messaging.IncomingEvents;
import io.stowage.messaging.Outcome;
import io.stowage.uploader.app.LatestPointerWork;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
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
     * One verification result; completes after the record is acked or nacked, and the next record is handed over only
     * then (results are applied one at a time, in partition order). A record whose key (the asset id every service
     * sends as the key) names no checkpoint step this instance waits for is acked on the calling thread (the
     * connector's event loop) without being decoded: every instance reads every result, and most are for datasets,
     * other instances' steps or steps done; the ledger checks and dead-letters an invalid record whichever service
     * reads it. Any other record is decoded and applied on a worker thread (it appends to the step's results log,
     * fsyncs, and may write the pointer to the store), ordered on the caller's context.
     */
    @Incoming("object-verified")
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public CompletionStage<Void> onVerified(Message<byte[]> record) {
        Object key = record.getMetadata(IncomingKafkaRecordMetadata.class).map(IncomingKafkaRecordMetadata::getKey)
                .orElse(null);
        if (key instanceof String assetId && !work.waitsFor(assetId)) {
            return record.ack();
        }
        Context context = Vertx.currentContext();
        if (context == null || !Context.isOnEventLoopThread()) {
            return apply(record);
        }
        return context.executeBlocking(() -> apply(record), true).toCompletionStage().thenCompose(settled -> settled);
    }

    private CompletionStage<Void> apply(Message<byte[]> record) {
        return incoming.handle(record, Topics.OBJECT_VERIFIED,
                value -> EventCodec.decode(ObjectVerified.class, value), this::writePointer);
    }

    private Outcome writePointer(ObjectVerified event) {
        work.onVerified(event);
        return Outcome.done(List.of());
    }
}
