package io.stowage.provideradapter.domain;

import io.stowage.events.EventMeta;
import io.stowage.events.GatePassed;
import io.stowage.events.StowageEvent;
import io.stowage.events.VolumeReleaseFailed;
import io.stowage.events.VolumeReleased;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ReleaseHandlerTest {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T06:00:00Z"), ZoneOffset.UTC);
    static final String FINGERPRINT = "f".repeat(64);

    /** Records calls and answers with a fixed result. */
    static final class RecordingProvider implements ReleaseProvider {
        final List<Path> calls = new ArrayList<>();
        ReleaseResult answer;

        RecordingProvider(ReleaseResult answer) {
            this.answer = answer;
        }

        @Override
        public String name() {
            return "local";
        }

        @Override
        public ReleaseResult release(Path dir, String expectedFingerprint) {
            calls.add(dir);
            assertThat(expectedFingerprint).isEqualTo(FINGERPRINT);
            return answer;
        }
    }

    static GatePassed passed(boolean dryRun) {
        return GatePassed.of(EventMeta.first("req-1", CLOCK), "req-1", "/vol/data/speech", dryRun,
                List.of("dataset/speech/r1"), 3, 8, FINGERPRINT);
    }

    @Test
    void aDryRunIsNeverExecuted() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));

        assertThat(new ReleaseHandler(provider, CLOCK).handle(passed(true))).isEmpty();
        assertThat(provider.calls).isEmpty();
    }

    @Test
    void aReleaseBecomesVolumeReleasedCausedByTheGate() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.released(3, 8));
        GatePassed gate = passed(false);

        Optional<StowageEvent> event = new ReleaseHandler(provider, CLOCK).handle(gate);

        assertThat(provider.calls).containsExactly(Path.of("/vol/data/speech"));
        assertThat(event).get().isInstanceOfSatisfying(VolumeReleased.class, released -> {
            assertThat(released.requestId()).isEqualTo("req-1");
            assertThat(released.provider()).isEqualTo("local");
            assertThat(released.fileCount()).isEqualTo(3);
            assertThat(released.totalBytes()).isEqualTo(8);
            assertThat(released.meta().causationId()).isEqualTo(gate.meta().eventId());
            assertThat(released.meta().correlationId()).isEqualTo("req-1");
        });
    }

    @Test
    void aRefusalBecomesVolumeReleaseFailedWithTheReason() {
        RecordingProvider provider = new RecordingProvider(ReleaseResult.refused("changed\nsince the gate"));

        Optional<StowageEvent> event = new ReleaseHandler(provider, CLOCK).handle(passed(false));

        assertThat(event).get().isInstanceOfSatisfying(VolumeReleaseFailed.class, failed ->
                assertThat(failed.reason()).isEqualTo("changed since the gate"));
    }
}
