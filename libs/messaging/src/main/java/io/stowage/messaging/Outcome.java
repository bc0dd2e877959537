package io.stowage.messaging;

import io.stowage.events.StowageEvent;

import java.util.List;

/**
 * What a service's domain made of one incoming event: the events to publish and whether the record is done, failed
 * for good, or failed for a reason that may pass ({@link IncomingEvents} decides what follows from each).
 *
 * @param events  the events to publish, in order (may be empty)
 * @param verdict done, permanent or transient
 * @param reason  one line saying why the record failed; null when done
 */
public record Outcome(List<StowageEvent> events, Verdict verdict, String reason) {
    /** The three fates of an incoming record. */
    public enum Verdict {
        /** Publish the events, then ack. */
        DONE,
        /** Publish the events (e.g. failure events), then dead-letter the record once with the reason. */
        PERMANENT,
        /** Try again after a backoff, up to the bound; when it still fails, publish the events and dead-letter. */
        TRANSIENT
    }

    public Outcome {
        events = List.copyOf(events);
        reason = reason == null ? null : reason.replace('\n', ' ').replace('\r', ' ');
    }

    /** @return a done outcome publishing {@code events} */
    public static Outcome done(List<? extends StowageEvent> events) {
        return new Outcome(List.copyOf(events), Verdict.DONE, null);
    }

    /** @return a permanent failure: {@code events} are published, then the record goes to {@code <topic>.dlq} */
    public static Outcome permanent(List<? extends StowageEvent> events, String reason) {
        return new Outcome(List.copyOf(events), Verdict.PERMANENT, reason);
    }

    /** @return a transient failure: retried; {@code events} are published only if the last attempt also fails */
    public static Outcome transientFailure(List<? extends StowageEvent> events, String reason) {
        return new Outcome(List.copyOf(events), Verdict.TRANSIENT, reason);
    }
}
