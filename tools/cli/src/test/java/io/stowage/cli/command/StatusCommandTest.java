package io.stowage.cli.command;

import io.stowage.events.ledger.ScrubCoverage;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class StatusCommandTest {
    private static final Instant AT = Instant.parse("2026-11-30T09:00:00Z");

    @Test
    void theCoverageLineNamesTheCountsTheBytesAndTheOldestUncheckedObject() {
        ScrubCoverage c = new ScrubCoverage("primary", AT, 2_592_000, 4, 4L << 20, 1, 3, 5, 4, 5L << 20, 0,
                "datasets/x/r1/shards/ab.tar.zst", Instant.parse("2026-11-28T09:00:00Z"), true, 172_800L);
        assertThat(StatusCommand.line(c)).isEqualTo("scrub coverage primary (period 30d): 3 of 4 objects re-read in"
                + " the period (5.0 MiB in 5 full reads, 4 by the scrub), 1 never re-read, 0 overdue; next due"
                + " datasets/x/r1/shards/ab.tar.zst, never re-read, uploaded 2026-11-28T09:00:00Z (2d ago)");
    }

    @Test
    void durationsReadInTheLargestWholeUnits() {
        assertThat(StatusCommand.human(0)).isEqualTo("0s");
        assertThat(StatusCommand.human(3)).isEqualTo("3s");
        assertThat(StatusCommand.human(200)).isEqualTo("3m 20s");
        assertThat(StatusCommand.human(3_600)).isEqualTo("1h");
        assertThat(StatusCommand.human(18_180)).isEqualTo("5h 3m");
        assertThat(StatusCommand.human(187_200)).isEqualTo("2d 4h");
        assertThat(StatusCommand.human(2_592_000)).isEqualTo("30d");
    }

    @Test
    void anEmptyStoreHasNoOldestObject() {
        ScrubCoverage c = new ScrubCoverage("replica", AT, 3600, 0, 0, 0, 0, 0, 0, 0, 0, null, null, false, null);
        assertThat(StatusCommand.line(c)).isEqualTo("scrub coverage replica (period 1h): 0 of 0 objects re-read in"
                + " the period (0 bytes in 0 full reads, 0 by the scrub), 0 never re-read, 0 overdue");
    }
}
