package io.stowage.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The arithmetic of the report (medians, MiB/s, ratios, goal verdicts, CPU times) on made-up times; no speed is asserted. */
class ReportTableTest {
    private static final InputSet GIB = new InputSet("1 × 1024 MiB", Path.of("big"), "big/",
            List.of(new BenchObject("big/object-0000.bin", Path.of("big/object-0000.bin"), 1L << 30, "00")));

    @Test
    void medianIsTheMiddleRunAndSpeedIsBytesOverIt() {
        Measurement m = new Measurement("stowage", GIB, List.of(9.0, 2.0, 4.0), List.of(9.0, 2.0, 4.0));

        assertThat(m.medianSeconds()).isEqualTo(4.0);
        assertThat(m.mibPerSecond()).isEqualTo(256.0);
        assertThat(new Measurement("x", GIB, List.of(1.0, 3.0), List.of(0.5, 0.1)).medianSeconds()).isEqualTo(2.0);
        assertThat(new Measurement("x", GIB, List.of(1.0, 3.0, 2.0), List.of(0.5, 0.1, 0.7)).medianCpuSeconds())
                .isEqualTo(0.5);
    }

    @Test
    void bashTimesFieldsBecomeSeconds() {
        assertThat(ExternalCommand.bashSeconds("0m1.250s")).isEqualTo(1.25);
        assertThat(ExternalCommand.bashSeconds("2m0.500s")).isEqualTo(120.5);
    }

    @Test
    void timedCommandReportsItsChildrensCpuAndKeepsItsOutput() throws Exception {
        // a child that counts to 200 000 uses CPU time (a few tenths of a second), reported by bash's times
        ExternalCommand.Timed run = ExternalCommand.runTimed(List.of("bash", "-c",
                "echo hello; i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"),
                java.util.Map.of(), java.util.Set.of(), Path.of("."));

        assertThat(run.output().strip()).isEqualTo("hello");
        assertThat(run.cpuSeconds()).isPositive();
    }

    @Test
    void goalRatioIsReferenceTimeOverToolTime() {
        List<Measurement> ms = List.of(new Measurement("stowage", GIB, List.of(4.0), List.of(4.0)),
                new Measurement("rclone", GIB, List.of(3.0), List.of(3.0)),
                new Measurement("aws", GIB, List.of(10.0), List.of(10.0)));

        Goal.Verdict vsRclone = new Goal("stowage", GIB.label(), "rclone", 0.8).evaluate(ms).orElseThrow();
        Goal.Verdict vsAws = new Goal("stowage", GIB.label(), "aws", 2.0).evaluate(ms).orElseThrow();

        assertThat(vsRclone.ratio()).isEqualTo(0.75);
        assertThat(vsRclone.met()).isFalse();
        assertThat(vsAws.ratio()).isEqualTo(2.5);
        assertThat(vsAws.met()).isTrue();
        assertThat(new Goal("stowage", "other input", "rclone", 1.0).evaluate(ms)).isEmpty();
    }

    @Test
    void tableShowsRatioVsRcloneAndEachGoalsVerdict() {
        List<Measurement> ms = List.of(new Measurement("stowage", GIB, List.of(4.0), List.of(4.0)),
                new Measurement("rclone", GIB, List.of(3.0), List.of(3.0)),
                new Measurement("aws | openssl", GIB, List.of(10.0), List.of(10.0)));
        List<Goal> goals = List.of(new Goal("stowage", GIB.label(), "rclone", 0.8),
                new Goal("stowage", GIB.label(), "aws | openssl", 2.0));

        List<String> lines = new ReportTable("rclone").render(ms, goals).lines().toList();

        assertThat(lines).hasSize(5);
        assertThat(lines.get(2)).isEqualTo("| stowage | 1 × 1024 MiB | 4.00 | 4.00 | 256 | 0.75× | 4.00 "
                + "| ≥ 0.8× rclone; ≥ 2.0× aws \\| openssl | **no** (0.75×); yes (2.50×) |");
        assertThat(lines.get(3)).isEqualTo("| rclone | 1 × 1024 MiB | 3.00 | 3.00 | 341 | 1.00× | 3.00 | – | – |");
        assertThat(lines.get(4)).contains("| aws \\| openssl | 1 × 1024 MiB | 10.00 |").contains("| 0.30× |");
    }
}
