package io.stowage.console.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TimeLeftAndEvidenceLinkTest {
    private static final Instant AT = Instant.parse("2026-12-02T10:00:00Z");

    @Test
    void timeLeftShowsTheLargestUnitAndTheNextCountedToTheReportsInstant() {
        assertThat(TimeLeft.of(null, AT)).isEqualTo("none");
        assertThat(TimeLeft.of(AT.plus(Duration.ofMinutes(59).plusSeconds(12)), AT)).isEqualTo("59m 12s left");
        assertThat(TimeLeft.of(AT.plus(Duration.ofDays(3).plusHours(4).plusMinutes(5)), AT)).isEqualTo("3d 4h left");
        assertThat(TimeLeft.of(AT.plus(Duration.ofHours(2).plusSeconds(7)), AT)).as("zero minutes left out, seconds not shown")
                .isEqualTo("2h left");
        assertThat(TimeLeft.of(AT.plusSeconds(1), AT)).isEqualTo("1s left");
    }

    @Test
    void aPassedOrReachedTtlIsExpired() {
        assertThat(TimeLeft.of(AT, AT)).isEqualTo("expired 0s ago");
        assertThat(TimeLeft.of(AT.minus(Duration.ofHours(2).plusMinutes(3)), AT)).isEqualTo("expired 2h 3m ago");
    }

    @Test
    void eachEvidenceIdLinksToItsEventPageWithTheIdEncoded() {
        Condition c = new Condition(3, "verified", true, "ok",
                List.of("0b9f6c1e-2d0c-4f5e-9f00-1a2b3c4d5e6f", "a/b c?d"));
        assertThat(c.evidenceLinks()).extracting(EvidenceLink::href)
                .containsExactly("/events/0b9f6c1e-2d0c-4f5e-9f00-1a2b3c4d5e6f", "/events/a%2Fb%20c%3Fd");
        assertThat(c.evidenceLinks()).extracting(EvidenceLink::id).containsExactlyElementsOf(c.evidence());
    }
}
