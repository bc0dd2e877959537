package io.stowage.provideradapter;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Without a state directory (production sets none by default) the provider-adapter refuses to start, in one line. */
class StateConfigTest {
    static StateConfig config(Optional<Path> stateDir) {
        return new StateConfig() {
            public Optional<Path> stateDir() { return stateDir; }
            public Duration outcomeRetryInterval() { return Duration.ofSeconds(30); }
            public Optional<List<String>> volumeRoots() { return Optional.empty(); }
        };
    }

    @Test
    void aMissingStateDirIsRefusedWithOneLineNamingTheSetting() {
        assertThatThrownBy(() -> StateConfig.required(config(Optional.empty())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("stowage.provider-adapter.state-dir (env STOWAGE_PROVIDER_ADAPTER_STATE_DIR) is not set")
                .hasMessageNotContaining("\n");
        assertThat(StateConfig.required(config(Optional.of(Path.of("/var/lib/stowage"))))).isEqualTo(Path.of("/var/lib/stowage"));
    }
}
