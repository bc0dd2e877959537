package io.stowage.cli;

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
        assertThat(StatusCommand.line(c)).isEqualTo("scrub coverage primary (period PT720H): 3 of 4 objects re-read in"
                + " the period (5.0 MiB in 5 full reads, 4 by the scrub), 1 never re-read, 0 overdue; oldest unchecked"
                + " datasets/x/r1/shards/ab.tar.zst, never re-read, uploaded 2026-11-28T09:00:00Z (PT48H ago)");
    }

    @Test
    void anEmptyStoreHasNoOldestObject() {
        ScrubCoverage c = new ScrubCoverage("replica", AT, 3600, 0, 0, 0, 0, 0, 0, 0, 0, null, null, false, null);
        assertThat(StatusCommand.line(c)).isEqualTo("scrub coverage replica (period PT1H): 0 of 0 objects re-read in"
                + " the period (0 bytes in 0 full reads, 0 by the scrub), 0 never re-read, 0 overdue");
    }
}
