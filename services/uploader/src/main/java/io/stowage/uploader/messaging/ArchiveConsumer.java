package io.stowage.uploader.messaging;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.stowage.events.ArchivePublished;
import io.stowage.events.EventCodec;
import io.stowage.events.InvalidEventException;
import io.stowage.events.Topics;
import io.stowage.uploader.storage.ArchiveUploadWork;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Consumes {@code archive.published} (consumer group {@code stowage-uploader}) and produces the archive's
 * {@code object.uploaded} / {@code object.upload.failed}; the verifier then verifies it like any object. A record that
 * is not a valid event, or whose upload failed permanently (an archive path outside the upload roots included), is
 * nacked to {@code archive.published.dlq} with the reason; otherwise the record is acked after the result is.
 */
@ApplicationScoped
public class ArchiveConsumer {
    private static final Logger LOG = Logger.getLogger(ArchiveConsumer.class);
    private final ArchiveUploadWork work;
    private final EventPublisher publisher;

    ArchiveConsumer(ArchiveUploadWork work, EventPublisher publisher) {
        this.work = work;
        this.publisher = publisher;
    }

    /** A milestone archive to upload; completes after the record is acked or nacked. */
    @Incoming("archive-published")
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public Uni<Void> onArchivePublished(Message<byte[]> record) {
        ArchivePublished event;
        try {
            event = EventCodec.decode(ArchivePublished.class, record.getPayload());
        } catch (InvalidEventException e) {
            LOG.warnf("invalid record on %s sent to %s: %s", Topics.ARCHIVE_PUBLISHED,
                    Topics.dlq(Topics.ARCHIVE_PUBLISHED), e.getMessage());
            return Uni.createFrom().completionStage(record.nack(e));
        }
        LOG.infof("event %s %s asset %s received", event.meta().eventId(), event.topic(), event.assetId());
        return Uni.createFrom().item(() -> work.upload(event))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .chain(results -> publisher.publishAll(results).replaceWith(results))
                .chain(results -> {
                    PermanentUploadFailure refused = PermanentUploadFailure.of(results);
                    if (refused == null) {
                        return Uni.createFrom().completionStage(record.ack());
                    }
                    LOG.warnf("event %s %s asset %s sent to %s: %s", event.meta().eventId(), event.topic(),
                            event.assetId(), Topics.dlq(Topics.ARCHIVE_PUBLISHED), refused.getMessage());
                    return Uni.createFrom().completionStage(record.nack(refused));
                })
                .onFailure().recoverWithUni(e -> {
                    LOG.errorf(e, "event %s %s asset %s failed", event.meta().eventId(), event.topic(), event.assetId());
                    return Uni.createFrom().completionStage(record.nack(e));
                });
    }
}
