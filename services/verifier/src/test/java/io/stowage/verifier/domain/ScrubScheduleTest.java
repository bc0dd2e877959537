package io.stowage.verifier.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScrubScheduleTest {
    final List<String> keys = IntStream.range(0, 2000).mapToObj(i -> "datasets/d/r/shards/" + i + ".tar.zst").toList();

    @Test
    void windowsEndToEndOverOnePeriodMakeEveryKeyDueExactlyOnce() {
        ScrubSchedule daily = new ScrubSchedule(Duration.ofDays(1), 0);
        Instant start = Instant.parse("2026-11-30T07:13:31.250Z"); // not aligned with a period
        for (String key : keys) {
            long times = IntStream.range(0, 24 * 7).filter(i -> daily.due(key, start.plus(Duration.ofMinutes(i * 60L / 7)),
                    start.plus(Duration.ofMinutes((i + 1) * 60L / 7)))).count();
            assertThat(times).as(key).isEqualTo(1);
        }
    }

    @Test
    void keysAreSpreadOverThePeriodAndTheSeedChangesTheirPlaces() {
        ScrubSchedule hourly = new ScrubSchedule(Duration.ofHours(1), 0);
        Instant start = Instant.parse("2026-11-30T00:00:00Z");
        long firstQuarter = keys.stream().filter(k -> hourly.due(k, start, start.plusSeconds(900))).count();
        assertThat(firstQuarter).isBetween(430L, 570L); // 2000 / 4 = 500

        ScrubSchedule other = new ScrubSchedule(Duration.ofHours(1), 1);
        assertThat(keys.stream().filter(k -> other.placeMillis(k) == hourly.placeMillis(k)).count()).isLessThan(5);
        assertThat(new ScrubSchedule(Duration.ofHours(1), 0).placeMillis(keys.get(3)))
                .isEqualTo(hourly.placeMillis(keys.get(3)));
    }

    @Test
    void aWindowOfAWholePeriodHoldsEveryKeyAndAnEmptyWindowNone() {
        ScrubSchedule hourly = new ScrubSchedule(Duration.ofHours(1), 0);
        Instant t = Instant.parse("2026-11-30T05:00:00Z");
        assertThat(keys).allMatch(k -> hourly.due(k, t, t.plus(Duration.ofHours(1))));
        assertThat(keys).noneMatch(k -> hourly.due(k, t, t));
        assertThatThrownBy(() -> hourly.due("k", t, t.minusSeconds(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScrubSchedule(Duration.ZERO, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
