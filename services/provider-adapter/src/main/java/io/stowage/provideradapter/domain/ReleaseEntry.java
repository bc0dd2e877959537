package io.stowage.provideradapter.domain;

import io.stowage.events.GatePassed;
import io.stowage.events.StowageEvent;
import io.stowage.events.VolumeReleaseFailed;
import io.stowage.events.VolumeReleased;

import java.time.Instant;

/**
 * One approved release request in the {@link ReleaseJournal}: APPROVED (recorded before anything is touched),
 * DELETING (recorded before the directory is renamed aside to {@code aside}), DONE (the outcome event, with its
 * event id, recorded before it is sent), and {@code sent} once Kafka acknowledged that outcome.
 *
 * @param requestId the release request ({@link GatePassed#requestId()}), the journal's key
 * @param state     where the release is
 * @param decision  the authentic gate.passed that approved it (decoded after its signature was verified)
 * @param aside     absolute path the directory is (or was) renamed to, null before DELETING
 * @param released  the outcome when the directory was released, else null
 * @param failed    the outcome when it was refused or only partly released, else null
 * @param sent      true once the outcome was acknowledged by Kafka
 * @param updatedAt when this state was recorded
 */
public record ReleaseEntry(String requestId, State state, GatePassed decision, String aside, VolumeReleased released,
                           VolumeReleaseFailed failed, boolean sent, Instant updatedAt) {

    /** Steps of one release, in order. */
    public enum State { APPROVED, DELETING, DONE }

    /** @return the entry of a release approved by {@code decision}, nothing touched yet */
    public static ReleaseEntry approved(GatePassed decision, Instant now) {
        return new ReleaseEntry(decision.requestId(), State.APPROVED, decision, null, null, null, false, now);
    }

    /** @return this entry about to rename its directory to {@code asidePath} */
    public ReleaseEntry deleting(String asidePath, Instant now) {
        return new ReleaseEntry(requestId, State.DELETING, decision, asidePath, null, null, false, now);
    }

    /**
     * @param outcome a {@link VolumeReleased} or a {@link VolumeReleaseFailed}
     * @return this entry done with {@code outcome}, not yet sent
     */
    public ReleaseEntry done(StowageEvent outcome, Instant now) {
        if (outcome instanceof VolumeReleased r) {
            return new ReleaseEntry(requestId, State.DONE, decision, aside, r, null, false, now);
        }
        return new ReleaseEntry(requestId, State.DONE, decision, aside, null, (VolumeReleaseFailed) outcome, false, now);
    }

    /** @return this entry with its outcome acknowledged by Kafka */
    public ReleaseEntry markedSent(Instant now) {
        return new ReleaseEntry(requestId, state, decision, aside, released, failed, true, now);
    }

    /** @return the recorded outcome, null before DONE */
    public StowageEvent outcome() {
        return released != null ? released : failed;
    }

    /** @return true when done and its outcome still has to be sent */
    public boolean unsent() {
        return state == State.DONE && !sent;
    }
}
