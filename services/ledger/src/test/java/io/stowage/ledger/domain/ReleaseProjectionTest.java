package io.stowage.ledger.domain;

import io.stowage.events.FailedCondition;
import io.stowage.events.GateDenied;
import io.stowage.events.GatePassed;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.VolumeReleased;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.stowage.ledger.domain.Events.SHA_A;
import static io.stowage.ledger.domain.Events.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReleaseProjectionTest {
    private static final ReleaseRequested REQUEST = ReleaseRequested.of(Events.meta(T0), "req-1", "/data/speech",
            false, "ops");
    private static final List<FailedCondition> FAILED = List.of(new FailedCondition(2, "no-full-read", "dataset/speech/r1"));

    @Test
    void requestIsPendingUntilTheGateDecides() {
        ReleaseRecord r = ReleaseProjection.apply(null, REQUEST);

        assertThat(r.toOutcome().gate()).isEqualTo("pending");
        assertThat(r.path()).isEqualTo("/data/speech");

        r = ReleaseProjection.apply(r, GateDenied.of(Events.meta(T0.plusSeconds(1)), "req-1", "/data/speech", false, FAILED));

        assertThat(r.toOutcome().gate()).isEqualTo("denied");
        assertThat(r.toOutcome().failed()).isEqualTo(FAILED);
        assertThat(r.released()).isFalse();
    }

    @Test
    void aDecisionSeenBeforeTheRequestIsNotReset() {
        GatePassed passed = GatePassed.of(Events.meta(T0.plusSeconds(1)), "req-1", "/data/speech", true,
                List.of("dataset/speech/r1"), 3, 2900, SHA_A);

        ReleaseRecord r = ReleaseProjection.apply(ReleaseProjection.apply(null, passed), REQUEST);

        assertThat(r.gate()).isEqualTo("passed");
        assertThat(r.dryRun()).isFalse();
    }

    @Test
    void volumeReleasedMarksTheRequestReleased() {
        ReleaseRecord r = ReleaseProjection.apply(ReleaseProjection.apply(null, REQUEST),
                VolumeReleased.of(Events.meta(T0.plusSeconds(2)), "req-1", "/data/speech", "local", 3, 2900));

        assertThat(r.released()).isTrue();
        assertThat(r.failureReason()).isNull();
    }

    @Test
    void refusesAnEventThatIsNotAboutARelease() {
        assertThatThrownBy(() -> ReleaseProjection.apply(null, Events.uploaded(T0, "k", 1, SHA_A)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
