package io.stowage.uploader.messaging;

import io.smallrye.reactive.messaging.annotations.Blocking;
import io.stowage.events.ArchivePublished;
import io.stowage.events.EventCodec;
import io.stowage.events.Topics;
import io.stowage.messaging.IncomingEvents;
import io.stowage.uploader.app.ArchiveUploadWork;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.util.concurrent.CompletionStage;

/**
 * Consumes {@code archive.published} (consumer group {@code stowage-uploader}) and produces the archive's
 * {@code object.uploaded} / {@code object.upload.failed}; the verifier then verifies it like any object. Same failure
 * policy as {@link UploadConsumer} ({@link IncomingEvents}): an invalid record and a permanent upload failure (an archive path outside the upload roots included) go to
 * {@code archive.published.dlq} with the reason, a transient one is tried again with backoff first.
 */
@ApplicationScoped
public class ArchiveConsumer {
    private final ArchiveUploadWork work;
    private final IncomingEvents incoming;

    ArchiveConsumer(ArchiveUploadWork work, IncomingEvents incoming) {
        this.work = work;
        this.incoming = incoming;
    }

    /** A milestone archive to upload; completes after the record is acked or nacked. */
    @Incoming("archive-published")
    @Blocking
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public CompletionStage<Void> onArchivePublished(Message<byte[]> record) {
        return incoming.handle(record, Topics.ARCHIVE_PUBLISHED,
                value -> EventCodec.decode(ArchivePublished.class, value),
                event -> UploadResults.of(work.upload(event)));
    }
}
