package io.stowage.console.domain;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FreeRowTest {
    private static final VolumeDirectory RUN = new VolumeDirectory("/hot/checkpoints/e/run-1", "/hot", 4, 1000);
    private static final VolumeDirectory DATA = new VolumeDirectory("/hot/datasets/speech", "/hot", 32, 2_000_000);

    private static Release release(String id, String path, boolean dryRun, String gate, boolean released, int bytes) {
        List<Condition> conditions = List.of(new Condition(5, "directory", !"denied".equals(gate),
                "denied".equals(gate) ? "train.log is not part of any archived asset" : "all files accounted", List.of("e1")));
        List<Failure> failures = "denied".equals(gate)
                ? List.of(new Failure(5, "unaccounted-files", "train.log")) : List.of();
        return new Release(id, path, dryRun, Instant.parse("2026-12-01T10:00:00Z"), "op", gate, released, null,
                conditions, failures, 3, bytes);
    }

    @Test
    void eachDirectoryGetsTheNewestRequestForExactlyItsPath() {
        List<Release> newestFirst = List.of(release("new", RUN.path(), false, "denied", false, 0),
                release("old", RUN.path(), true, "passed", false, 10),
                release("child", RUN.path() + "/step-50", false, "passed", true, 10));

        List<FreeRow> rows = FreeRow.of(List.of(RUN, DATA), newestFirst);

        assertThat(rows).extracting(r -> r.latest() == null ? null : r.latest().requestId()).containsExactly("new", null);
        assertThat(rows.get(0).decision()).isEqualTo("denied");
        assertThat(rows.get(0).latest().failures()).extracting(Failure::detail).containsExactly("train.log");
        assertThat(rows.get(0).latest().failing()).extracting(Condition::number).containsExactly(5);
        assertThat(rows.get(1).decision()).isEqualTo("not evaluated yet");
    }

    @Test
    void aPassingDryRunSaysWhatWouldBeFreed() {
        FreeRow row = FreeRow.of(List.of(DATA), List.of(release("d", DATA.path(), true, "passed", false, 3 * 1024 * 1024)))
                .get(0);

        assertThat(row.decision()).isEqualTo("would free 3.0 MiB (3 files)");
        assertThat(row.latest().finished()).isTrue();
        assertThat(row.latest().outcome()).isEqualTo("passed");
    }

    @Test
    void aReleaseIsFinishedOnlyWhenDeniedReleasedFailedOrAPassedDryRun() {
        assertThat(release("a", "/x", false, "pending", false, 0).finished()).isFalse();
        assertThat(release("b", "/x", false, "passed", false, 0).finished()).as("approved, not yet deleted").isFalse();
        assertThat(release("c", "/x", false, "passed", true, 0).outcome()).isEqualTo("released");
        assertThat(release("d", "/x", false, "denied", false, 0).finished()).isTrue();
        Release failed = new Release("e", "/x", false, null, null, "passed", false, "inventory changed", List.of(), List.of(), 0, 0);
        assertThat(failed.finished()).isTrue();
        assertThat(failed.outcome()).isEqualTo("failed");
    }
}
