package io.stowage.events;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CheckpointMetricsTest {
    private static final String SHA = "0123456789abcdef".repeat(4);
    private final Clock clock = Clock.fixed(Instant.parse("2026-11-30T06:00:00Z"), ZoneOffset.UTC);

    private CheckpointPublished published(Map<String, Double> metrics) {
        return CheckpointPublished.of(EventMeta.first("checkpoint/exp/run/000000000007", clock), "exp", "run", 7,
                "/hot/ckpt/7", "/stage/7.json", SHA, 2, 99, false, List.of(), new Provenance("abc", SHA, SHA), metrics);
    }

    @Test
    void metricsRoundTripSortedByName() {
        CheckpointPublished event = published(Map.of("val_loss", 0.42, "acc", 0.9));
        String json = new String(EventCodec.encode(event), StandardCharsets.UTF_8);
        assertThat(json).contains("\"metrics\":{\"acc\":0.9,\"val_loss\":0.42}");
        CheckpointPublished back = EventCodec.decode(CheckpointPublished.class, json.getBytes(StandardCharsets.UTF_8));
        assertThat(back.metrics()).containsExactly(Map.entry("acc", 0.9), Map.entry("val_loss", 0.42));
    }

    @Test
    void anEventWrittenBeforeMetricsDecodesWithNone() {
        String json = new String(EventCodec.encode(published(Map.of("x", 1.0))), StandardCharsets.UTF_8)
                .replace(",\"metrics\":{\"x\":1.0}", "").replace("\"metrics\":{\"x\":1.0},", "");
        assertThat(json).doesNotContain("metrics");
        CheckpointPublished old = EventCodec.decode(CheckpointPublished.class, json.getBytes(StandardCharsets.UTF_8));
        assertThat(old.metrics()).isEmpty();
        assertThat(old.step()).isEqualTo(7);
    }

    @Test
    void aNonFiniteValueOrABadNameIsRefused() {
        assertThatThrownBy(() -> published(Map.of("loss", Double.NaN)))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("loss");
        assertThatThrownBy(() -> published(Map.of("val loss", 1.0)))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("metric name");
    }

    @Test
    void anExpiryRefusesAKeyOutsideItsOwnStep() {
        EventMeta meta = EventMeta.first("checkpoint/exp/run/000000000007", clock);
        assertThatThrownBy(() -> CheckpointExpired.of(meta, "exp", "run", 7, SHA, List.of(
                new CheckpointExpired.ExpiredObject("primary", "b", "checkpoints/exp/run/000000000008/" + SHA + "/m", 1)), "ops"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("is not under");
        assertThatThrownBy(() -> CheckpointExpired.of(meta, "exp", "run", 7, SHA, List.of(
                new CheckpointExpired.ExpiredObject("primary", "b", "datasets/speech/r1/manifest.json", 1)), "ops"))
                .isInstanceOf(InvalidEventException.class);
        assertThatThrownBy(() -> CheckpointExpired.of(meta, "exp", "run", 7, SHA, List.of(), "ops"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("objects");
    }
}
