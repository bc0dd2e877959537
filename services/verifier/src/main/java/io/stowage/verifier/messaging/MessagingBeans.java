package io.stowage.verifier.messaging;

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
 * Produces the verifier's {@link EventPublisher} (source {@value #SOURCE}: {@code object.verified}) and the
 * {@link IncomingEvents} shape of its consumer.
 */
@ApplicationScoped
public class MessagingBeans {
    /** CloudEvents source of every event the verifier produces. */
    public static final String SOURCE = "/stowage/verifier";

    @Produces
    @ApplicationScoped
    EventPublisher publisher(@Channel("object-verified") MutinyEmitter<byte[]> verified) {
        return EventPublisher.of(SOURCE, Map.of(Topics.OBJECT_VERIFIED, verified));
    }

    @Produces
    @ApplicationScoped
    IncomingEvents incoming(EventPublisher publisher, RedeliverySettings redelivery) {
        return new IncomingEvents(publisher, redelivery.redelivery());
    }
}
