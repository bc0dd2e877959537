package io.stowage.ledger.domain;

import io.stowage.events.EventMeta;
import io.stowage.events.PodCreated;
import io.stowage.events.PodTerminated;
import io.stowage.events.ProviderActionFailed;
import io.stowage.events.ProviderAlert;
import io.stowage.events.VolumeCreated;
import io.stowage.events.VolumeDestroyed;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static io.stowage.ledger.domain.Events.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResourceProjectionTest {

    private static EventMeta meta(Instant time) {
        return new EventMeta(UUID.randomUUID().toString(), 1, time, "volume/vol-1", null);
    }

    @Test
    void aVolumeIsCreatedBlockedThenDestroyedWithItsCost() {
        VolumeCreated created = VolumeCreated.of(meta(T0), "vol-1", "local", "scratch-7", "scratch", 500,
                "/vols/vol-1", 259200, T0.plusSeconds(259200), null, "run-7");
        ResourceRecord r = ResourceProjection.apply(null, created);
        assertThat(r.key()).isEqualTo("volume/vol-1");
        assertThat(r.state()).isEqualTo("ACTIVE");
        assertThat(r.sizeGb()).isEqualTo(500);
        assertThat(r.expiresAt()).isEqualTo(T0.plusSeconds(259200));

        r = ResourceProjection.apply(r, ProviderAlert.of(meta(T0.plusSeconds(259200)), "volume", "vol-1",
                "release-blocked", "blocked", List.of("5 unaccounted-file: /vols/vol-1/notes.txt"), "req-1"));
        assertThat(r.alertCount()).isEqualTo(1);
        assertThat(r.lastAlertBlockers()).containsExactly("5 unaccounted-file: /vols/vol-1/notes.txt");
        assertThat(r.releaseRequestId()).isEqualTo("req-1");
        assertThat(r.state()).isEqualTo("ACTIVE");

        r = ResourceProjection.apply(r, VolumeDestroyed.of(meta(T0.plusSeconds(259300)), "vol-1", "local", 500,
                259300, new BigDecimal("3.453387"), "ttl", "req-2"));
        assertThat(r.state()).isEqualTo("DESTROYED");
        assertThat(r.costUsd()).isEqualByComparingTo("3.453387");
        assertThat(r.lifetimeSeconds()).isEqualTo(259300L);
        assertThat(r.endReason()).isEqualTo("ttl");
        assertThat(r.name()).isEqualTo("scratch-7");

        // a late replay of the creation never undoes the end
        assertThat(ResourceProjection.apply(r, created).state()).isEqualTo("DESTROYED");
    }

    @Test
    void aPodKeepsItsHourlyPriceAndItsEnd() {
        ResourceRecord r = ResourceProjection.apply(null, PodCreated.of(meta(T0), "pod-1", "runpod", "train",
                "NVIDIA A40", 1, new BigDecimal("0.44"), "vol-1", 0, null, new BigDecimal("10"), "run-7"));
        r = ResourceProjection.apply(r, PodTerminated.of(meta(T0.plusSeconds(3600)), "pod-1", "runpod", 3600,
                new BigDecimal("0.440000"), "operator"));
        assertThat(r.key()).isEqualTo("pod/pod-1");
        assertThat(r.costPerHourUsd()).isEqualByComparingTo("0.44");
        assertThat(r.state()).isEqualTo("TERMINATED");
        assertThat(r.costUsd()).isEqualByComparingTo("0.44");
    }

    @Test
    void actionFailuresAndRunAlertsChangeNoRow() {
        ProviderActionFailed failed = ProviderActionFailed.of(meta(T0), "create-volume", "volume", "scratch-7",
                "runpod", 400, true, "bad size");
        assertThat(ResourceProjection.handles(failed)).isTrue();
        assertThat(ResourceProjection.keyOf(failed)).isNull();
        assertThat(ResourceProjection.keyOf(ProviderAlert.of(meta(T0), "run", "run-7", "cap-reached", "x", List.of(),
                null))).isNull();
        assertThatThrownBy(() -> ResourceProjection.apply(null, failed)).isInstanceOf(IllegalArgumentException.class);
    }
}
