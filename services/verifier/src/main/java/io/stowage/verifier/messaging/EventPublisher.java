package io.stowage.verifier.messaging;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.stowage.events.ObjectVerified;
import io.stowage.messaging.OutgoingEvents;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;

import java.util.List;

/**
 * Publishes {@link ObjectVerified} events to {@code object.verified}, keyed by asset id, with the
 * CloudEvents headers of source {@value #SOURCE}.
 */
@ApplicationScoped
public class EventPublisher {
    /** CloudEvents source of every event the verifier produces. */
    public static final String SOURCE = "/stowage/verifier";

    @Channel("object-verified")
    MutinyEmitter<byte[]> verified;

    /** @return completes when the broker acknowledged every event, in order */
    public Uni<Void> publishAll(List<ObjectVerified> events) {
        return Multi.createFrom().iterable(events).onItem().transformToUniAndConcatenate(this::publish)
                .collect().last().replaceWithVoid();
    }

    /** @return completes when the broker acknowledged the record */
    public Uni<Void> publish(ObjectVerified event) {
        return verified.sendMessage(OutgoingEvents.message(event, SOURCE));
    }
}
