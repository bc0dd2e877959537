package io.stowage.messaging;

import io.stowage.events.InvalidEventException;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The one shape of every Stowage consumer: decode the record, dead-letter it if it is not a valid event, hand the
 * event to the service's domain, publish the resulting events, then ack or nack the record.
 * <p>
 * Consumer style (the same in every service): the {@code @Incoming} method is {@code @Blocking} (ordered, on a worker
 * thread; or, where most records are acked without work, it calls {@link #handle} itself on a worker thread through
 * an ordered {@code executeBlocking}), takes the {@code Message<byte[]>}, acknowledges it explicitly ({@code @Acknowledgment(MANUAL)}) and
 * returns this class's {@code CompletionStage}. Blocking, because every consumer does blocking I/O (file reads and
 * hashing, fsynced journals, blocking S3 and ledger HTTP calls) and waits for the broker's acknowledgement of what it
 * publishes; explicit acks, because a record is acked only after its events were acknowledged and nacked exactly once,
 * with the reason the dead-letter topic records.
 * <p>
 * Failure policy: an invalid record (undecodable, unknown type, failing validation) and a {@link Outcome.Verdict#PERMANENT}
 * outcome (an {@link InvalidEventException} thrown by the domain included) are nacked once, after the outcome's events
 * were published; the channel's {@code failure-strategy=dead-letter-queue} writes the record to {@code <topic>.dlq}
 * with {@code dead-letter-reason}. A {@link Outcome.Verdict#TRANSIENT} outcome, any other exception of the domain and
 * a failed or timed-out publish are retried here, in this loop, with the {@link Redelivery} backoff and bound; the
 * record is never acked while they last. When the last attempt still fails, its events are published and the record
 * is dead-lettered with {@code transient failure after N attempts: <reason>}: kept, never dropped. A service that is
 * stopping during a backoff leaves the record unacknowledged (its offset is not committed; it is read again).
 */
public final class IncomingEvents {
    private static final Logger LOG = Logger.getLogger(IncomingEvents.class);
    private final EventPublisher publisher;
    private final Redelivery redelivery;

    /**
     * @param publisher  sends the outcome's events and waits for the broker
     * @param redelivery bound and backoff of the retries of a transient failure
     */
    public IncomingEvents(EventPublisher publisher, Redelivery redelivery) {
        this.publisher = publisher;
        this.redelivery = redelivery;
    }

    /**
     * Runs the shape on the calling worker thread and settles the record.
     *
     * @param record  the incoming record (value = the event's JSON)
     * @param topic   the record's topic ({@code io.stowage.events.Topics}), for logs and the dead-letter topic's name
     * @param decoder the value to the event, throwing {@link InvalidEventException}
     * @param domain  the event to its outcome; may block
     * @return the record's ack or nack
     */
    public <E extends StowageEvent> CompletionStage<Void> handle(Message<byte[]> record, String topic,
                                                                Function<byte[], E> decoder, Function<E, Outcome> domain) {
        E event;
        try {
            event = decoder.apply(record.getPayload());
        } catch (InvalidEventException e) {
            LOG.warnf("invalid record on %s sent to %s: %s", topic, Topics.dlq(topic), e.getMessage());
            return record.nack(e);
        }
        LOG.infof("event %s %s asset %s received", event.meta().eventId(), topic, event.assetId());
        for (int attempt = 1; ; attempt++) {
            boolean last = attempt == redelivery.attempts();
            Outcome outcome = attempt(event, domain, last);
            if (outcome.verdict() != Outcome.Verdict.TRANSIENT || last) {
                return settle(record, topic, event, outcome, attempt);
            }
            LOG.warnf("event %s %s asset %s: attempt %d of %d failed, again in %s: %s", event.meta().eventId(), topic,
                    event.assetId(), attempt, redelivery.attempts(), redelivery.backoffAfter(attempt), outcome.reason());
            if (!redelivery.pauseAfter(attempt)) {
                return new CompletableFuture<>();
            }
        }
    }

    private <E extends StowageEvent> Outcome attempt(E event, Function<E, Outcome> domain, boolean last) {
        Outcome outcome;
        try {
            outcome = domain.apply(event);
        } catch (InvalidEventException e) {
            outcome = Outcome.permanent(List.of(), e.getMessage());
        } catch (RuntimeException e) {
            LOG.debugf(e, "event %s %s asset %s failed", event.meta().eventId(), event.topic(), event.assetId());
            outcome = Outcome.transientFailure(List.of(), describe(e));
        }
        if (outcome.verdict() == Outcome.Verdict.TRANSIENT && !last) {
            return outcome;
        }
        try {
            publisher.sendAll(outcome.events());
            return outcome;
        } catch (RuntimeException e) {
            return Outcome.transientFailure(List.of(), "publish failed: " + describe(e));
        }
    }

    private static CompletionStage<Void> settle(Message<byte[]> record, String topic, StowageEvent event,
                                                Outcome outcome, int attempts) {
        String reason = switch (outcome.verdict()) {
            case DONE -> null;
            case PERMANENT -> outcome.reason();
            case TRANSIENT -> "transient failure after " + attempts + " attempts: " + outcome.reason();
        };
        if (reason == null) {
            return record.ack();
        }
        LOG.warnf("event %s %s asset %s sent to %s: %s", event.meta().eventId(), topic, event.assetId(),
                Topics.dlq(topic), reason);
        return record.nack(new DeadLetterReason(reason));
    }

    private static String describe(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.replace('\n', ' ').replace('\r', ' ');
    }
}
