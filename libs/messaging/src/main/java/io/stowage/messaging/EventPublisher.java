package io.stowage.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.stowage.events.StowageEvent;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Sends a service's {@link StowageEvent}s to Kafka as {@link OutgoingEvents#message} records (value = JSON, key =
 * asset id, CloudEvents headers of one source), each to the topic it names, through the emitter configured for that
 * topic. {@link #send} and {@link #sendAll} wait for the broker's acknowledgement (the channels use {@code acks=all})
 * at most the configured timeout; call them on a worker thread. One instance per service, made by its CDI producer
 * from its {@code @Channel} emitters.
 */
public final class EventPublisher {
    /** How long {@link #send} waits for the broker when the service does not say: 60 s. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    private static final Logger LOG = Logger.getLogger(EventPublisher.class);

    private final String source;
    private final Map<String, MutinyEmitter<byte[]>> emitters;
    private final UnaryOperator<StowageEvent> enrich;
    private final UnaryOperator<Message<byte[]>> finish;
    private final Duration timeout;

    private EventPublisher(String source, Map<String, MutinyEmitter<byte[]>> emitters,
                           UnaryOperator<StowageEvent> enrich, UnaryOperator<Message<byte[]>> finish,
                           Duration timeout) {
        this.source = source;
        this.emitters = Map.copyOf(emitters);
        this.enrich = enrich;
        this.finish = finish;
        this.timeout = timeout;
    }

    /**
     * @param source   the CloudEvents source, e.g. {@code /stowage/uploader}
     * @param emitters topic name ({@code io.stowage.events.Topics}) to the emitter of the channel that writes it;
     *                 several topics may share one emitter, since each record names its topic
     */
    public static EventPublisher of(String source, Map<String, MutinyEmitter<byte[]>> emitters) {
        return new EventPublisher(source, emitters, UnaryOperator.identity(), UnaryOperator.identity(), DEFAULT_TIMEOUT);
    }

    /** @return a publisher that waits at most {@code timeout} for each acknowledgement */
    public EventPublisher withTimeout(Duration timeout) {
        return new EventPublisher(source, emitters, enrich, finish, timeout);
    }

    /** @return a publisher that passes every event through {@code enrich} before encoding it (e.g. to add a field) */
    public EventPublisher enrichedBy(UnaryOperator<StowageEvent> enrich) {
        return new EventPublisher(source, emitters, enrich, finish, timeout);
    }

    /** @return a publisher that passes every message through {@code finish} before sending it (e.g. to sign it) */
    public EventPublisher finishedBy(UnaryOperator<Message<byte[]>> finish) {
        return new EventPublisher(source, emitters, enrich, finish, timeout);
    }

    /**
     * Sends one event and waits for the broker's acknowledgement.
     *
     * @throws IllegalArgumentException for a topic this service does not produce
     * @throws RuntimeException         when the broker refuses the record or does not acknowledge it within the timeout
     *                                  ({@code io.smallrye.mutiny.TimeoutException})
     */
    public void send(StowageEvent event) {
        StowageEvent sent = enrich.apply(event);
        emitterFor(sent).sendMessage(message(sent)).await().atMost(timeout);
        LOG.infof("sent %s event %s asset %s", sent.topic(), sent.meta().eventId(), sent.assetId());
    }

    /** Sends the events in order, each acknowledged before the next; stops at the first failure (see {@link #send}). */
    public void sendAll(List<? extends StowageEvent> events) {
        events.forEach(this::send);
    }

    /**
     * Sends one event without waiting: safe on the HTTP event loop. A send failure is logged by the connector.
     *
     * @throws IllegalArgumentException for a topic this service does not produce
     */
    public void sendAndForget(StowageEvent event) {
        StowageEvent sent = enrich.apply(event);
        emitterFor(sent).sendMessageAndForget(message(sent));
    }

    /** @return the record {@link #send} sends for an already enriched {@code event} */
    Message<byte[]> message(StowageEvent event) {
        return finish.apply(OutgoingEvents.routed(event, source));
    }

    private MutinyEmitter<byte[]> emitterFor(StowageEvent event) {
        MutinyEmitter<byte[]> emitter = emitters.get(event.topic());
        if (emitter == null) {
            throw new IllegalArgumentException(source + " does not produce " + event.topic());
        }
        return emitter;
    }
}
