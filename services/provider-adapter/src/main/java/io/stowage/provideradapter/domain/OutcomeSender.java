package io.stowage.provideradapter.domain;

import io.stowage.events.StowageEvent;

/** Sends one outcome event (volume.released or volume.release.failed) and returns once it is acknowledged. */
@FunctionalInterface
public interface OutcomeSender {

    /** @throws RuntimeException when it was not acknowledged (then it is sent again later from the journal) */
    void send(StowageEvent outcome);
}
