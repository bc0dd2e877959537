package io.stowage.uploader.messaging;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.StowageEvent;
import io.stowage.messaging.OutgoingEvents;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;

import java.util.List;

/**
 * Publishes the uploader's events: {@code ObjectUploaded} to {@code object.uploaded} and
 * {@code ObjectUploadFailed} to {@code object.upload.failed}, keyed by asset id, with the
 * CloudEvents headers of source {@value #SOURCE}.
 */
@ApplicationScoped
public class EventPublisher {
    /** CloudEvents source of every event the uploader produces. */
    public static final String SOURCE = "/stowage/uploader";

    @Channel("object-uploaded")
    MutinyEmitter<byte[]> uploaded;

    @Channel("object-upload-failed")
    MutinyEmitter<byte[]> failed;

    /** @return completes when the broker acknowledged every event, in order */
    public Uni<Void> publishAll(List<StowageEvent> events) {
        return Multi.createFrom().iterable(events).onItem().transformToUniAndConcatenate(this::publish)
                .collect().last().replaceWithVoid();
    }

    /** @return completes when the broker acknowledged the record */
    public Uni<Void> publish(StowageEvent event) {
        MutinyEmitter<byte[]> emitter = event instanceof ObjectUploaded ? uploaded : failed;
        return emitter.sendMessage(OutgoingEvents.message(event, SOURCE));
    }
}
