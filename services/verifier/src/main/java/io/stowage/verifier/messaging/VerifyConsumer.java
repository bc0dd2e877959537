package io.stowage.verifier.messaging;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.stowage.events.EventCodec;
import io.stowage.events.InvalidEventException;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.Topics;
import io.stowage.verifier.storage.VerifyWork;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Consumes {@code object.uploaded} (consumer group {@code stowage-verifier}) and produces
 * {@code object.verified}. A record that is not a valid event is nacked, so the channel sends it to
 * {@code object.uploaded.dlq}. Store reads run on the worker pool, never on the event loop; the record
 * is acknowledged only after its results were acknowledged by the broker.
 */
@ApplicationScoped
public class VerifyConsumer {
    private static final Logger LOG = Logger.getLogger(VerifyConsumer.class);
    private final VerifyWork work;
    private final EventPublisher publisher;

    VerifyConsumer(VerifyWork work, EventPublisher publisher) {
        this.work = work;
        this.publisher = publisher;
    }

    /** One uploaded object to verify; completes after the record is acked (results published) or nacked. */
    @Incoming("object-uploaded")
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public Uni<Void> onObjectUploaded(Message<byte[]> record) {
        ObjectUploaded event;
        try {
            event = EventCodec.decode(ObjectUploaded.class, record.getPayload());
        } catch (InvalidEventException e) {
            LOG.warnf("invalid record on %s sent to %s: %s", Topics.OBJECT_UPLOADED,
                    Topics.dlq(Topics.OBJECT_UPLOADED), e.getMessage());
            return Uni.createFrom().completionStage(record.nack(e));
        }
        return Uni.createFrom().item(() -> work.verify(event))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .chain(publisher::publishAll)
                .chain(() -> Uni.createFrom().completionStage(record.ack()))
                .onFailure().recoverWithUni(e -> {
                    LOG.errorf(e, "event %s object.uploaded asset %s failed", event.meta().eventId(), event.assetId());
                    return Uni.createFrom().completionStage(record.nack(e));
                });
    }
}
