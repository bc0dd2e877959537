package io.stowage.uploader.messaging;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.stowage.events.EventCodec;
import io.stowage.events.InvalidEventException;
import io.stowage.events.ObjectVerified;
import io.stowage.events.Topics;
import io.stowage.uploader.storage.LatestPointerWork;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Consumes {@code object.verified} (consumer group {@code stowage-uploader}) and hands each result to
 * {@link LatestPointerWork}, which writes a run's {@code latest} pointer once a step is fully verified.
 * Produces no event. An invalid record goes to {@code object.verified.dlq}; a failure to write the
 * pointer nacks the record (dead-letter topic with the reason).
 */
@ApplicationScoped
public class VerifiedConsumer {
    private static final Logger LOG = Logger.getLogger(VerifiedConsumer.class);
    private final LatestPointerWork work;

    VerifiedConsumer(LatestPointerWork work) {
        this.work = work;
    }

    /** One verification result; completes after the record is acked or nacked. */
    @Incoming("object-verified")
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public Uni<Void> onVerified(Message<byte[]> record) {
        ObjectVerified event;
        try {
            event = (ObjectVerified) EventCodec.decode(Topics.OBJECT_VERIFIED, record.getPayload());
        } catch (InvalidEventException e) {
            LOG.warnf("invalid record on %s sent to %s: %s", Topics.OBJECT_VERIFIED,
                    Topics.dlq(Topics.OBJECT_VERIFIED), e.getMessage());
            return Uni.createFrom().completionStage(record.nack(e));
        }
        return Uni.createFrom().item(() -> work.onVerified(event))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .chain(() -> Uni.createFrom().completionStage(record.ack()))
                .onFailure().recoverWithUni(e -> {
                    LOG.errorf(e, "event %s %s asset %s: latest pointer not written", event.meta().eventId(),
                            event.topic(), event.assetId());
                    return Uni.createFrom().completionStage(record.nack(e));
                });
    }
}
