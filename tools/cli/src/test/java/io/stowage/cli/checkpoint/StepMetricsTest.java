package io.stowage.cli.checkpoint;

import io.stowage.cli.CliException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StepMetricsTest {
    @TempDir
    Path tmp;

    @Test
    void theFileAndTheOptionsMergeAndTheOptionWinsOnTheSameName() throws Exception {
        Path step = Files.createDirectories(tmp.resolve("run/step-3"));
        Files.writeString(step.resolve("metrics.json"), "{\"val_loss\":0.5,\"acc\":0.8}");
        Files.writeString(step.resolve("model.pt"), "abc");

        CheckpointPublisher.Prepared prepared = new CheckpointPublisher(tmp.resolve("staging"),
                Clock.fixed(Instant.parse("2026-11-30T00:00:00Z"), ZoneOffset.UTC))
                .prepare(step, "exp", "run", 3, false, List.of(), false, null, List.of("val_loss=0.42", "lr=3e-4"));

        assertThat(prepared.event().metrics())
                .containsExactly(Map.entry("acc", 0.8), Map.entry("lr", 3e-4), Map.entry("val_loss", 0.42));
    }

    @Test
    void noFileAndNoOptionGiveNoMetrics() throws Exception {
        Path step = Files.createDirectories(tmp.resolve("step-1"));
        assertThat(StepMetrics.of(step, List.of())).isEmpty();
    }

    @Test
    void malformedMetricsAreUsageErrors() throws Exception {
        Path step = Files.createDirectories(tmp.resolve("step-1"));
        assertThatThrownBy(() -> StepMetrics.of(step, List.of("val_loss")))
                .isInstanceOf(CliException.class).hasMessageContaining("NAME=VALUE");
        assertThatThrownBy(() -> StepMetrics.of(step, List.of("val_loss=abc")))
                .isInstanceOf(CliException.class).hasMessageContaining("not a number");
        assertThatThrownBy(() -> StepMetrics.of(step, List.of("loss=NaN")))
                .isInstanceOf(CliException.class).hasMessageContaining("finite");
        assertThatThrownBy(() -> StepMetrics.of(step, List.of("val loss=1")))
                .isInstanceOf(CliException.class).hasMessageContaining("metric name");
        Files.writeString(step.resolve("metrics.json"), "{\"loss\":\"low\"}");
        assertThatThrownBy(() -> StepMetrics.of(step, List.of()))
                .isInstanceOf(CliException.class).hasMessageContaining("loss is not a number");
    }
}
