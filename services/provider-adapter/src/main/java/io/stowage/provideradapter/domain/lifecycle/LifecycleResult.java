package io.stowage.provideradapter.domain.lifecycle;

import io.stowage.events.StowageEvent;

import java.util.List;

/**
 * What one lifecycle step did: the resource as it is now (null when there is none), the events to send (in order),
 * and a one-line error when the step failed (the events then include the failure event, if any).
 */
public record LifecycleResult<T>(T value, List<StowageEvent> events, String error) {

    public LifecycleResult {
        events = List.copyOf(events);
    }

    static <T> LifecycleResult<T> ok(T value, List<StowageEvent> events) {
        return new LifecycleResult<>(value, events, null);
    }

    static <T> LifecycleResult<T> failed(T value, String error, List<StowageEvent> events) {
        return new LifecycleResult<>(value, events, error);
    }

    /** @return true when the step did what was asked (or found it already done) */
    public boolean succeeded() {
        return error == null;
    }
}
