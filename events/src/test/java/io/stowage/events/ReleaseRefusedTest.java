package io.stowage.events;

import org.junit.jupiter.api.Test;

import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReleaseRefusedTest {
    @Test
    void aRefusalIsKeyedByItsIdAndOnlyFor401Or403() {
        EventMeta meta = EventMeta.first("r-1", Clock.systemUTC());
        ReleaseRefused refused = ReleaseRefused.of(meta, "r-1", "gatekeeper", "POST", "/api/releases", 401, "missing-token",
                null, null, null);
        assertThat(refused.assetId()).isEqualTo("release/r-1");
        assertThat(refused.topic()).isEqualTo("release.refused");
        assertThat(Topics.ALL).contains(Topics.RELEASE_REFUSED);
        assertThatThrownBy(() -> ReleaseRefused.of(meta, "r-1", "gatekeeper", "POST", "/api/releases", 200, "ok",
                null, null, null)).isInstanceOf(InvalidEventException.class).hasMessageContaining("401 or 403");
    }
}
