package io.stowage.uploader.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.stowage.events.Topics;
import io.stowage.messaging.EventPublisher;
import io.stowage.messaging.IncomingEvents;
import io.stowage.messaging.RedeliverySettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import org.eclipse.microprofile.reactive.messaging.Channel;

import java.util.Map;

/**
 * Produces the uploader's {@link EventPublisher} (source {@value #SOURCE}: {@code object.uploaded},
 * {@code object.upload.failed}) and the {@link IncomingEvents} shape its consumers share.
 */
@ApplicationScoped
public class MessagingBeans {
    /** CloudEvents source of every event the uploader produces. */
    public static final String SOURCE = "/stowage/uploader";

    @Produces
    @ApplicationScoped
    EventPublisher publisher(@Channel("object-uploaded") MutinyEmitter<byte[]> uploaded,
                             @Channel("object-upload-failed") MutinyEmitter<byte[]> failed) {
        return EventPublisher.of(SOURCE, Map.of(Topics.OBJECT_UPLOADED, uploaded, Topics.OBJECT_UPLOAD_FAILED, failed));
    }

    @Produces
    @ApplicationScoped
    IncomingEvents incoming(EventPublisher publisher, RedeliverySettings redelivery) {
        return new IncomingEvents(publisher, redelivery.redelivery());
    }
}
