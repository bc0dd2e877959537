package io.stowage.gatekeeper;

import io.stowage.events.GateSignature;
import io.stowage.messaging.GateSettings;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The gatekeeper's signing key: required, at least 32 bytes, never echoed in the start-up error. */
class GateBeansTest {

    static GateSettings withKey(String key) {
        return new GateSettings() {
            @Override
            public Optional<List<String>> protectedRoots() {
                return Optional.empty();
            }

            @Override
            public Optional<String> signingKey() {
                return Optional.ofNullable(key);
            }
        };
    }

    @Test
    void aMissingKeyStopsTheStartWithTheEnvironmentVariableNamed() {
        assertThatThrownBy(() -> new GateBeans().gateSignature(withKey(null)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("STOWAGE_GATE_SIGNING_KEY")
                .hasMessageContaining("does not start");
    }

    @Test
    void aShortKeyStopsTheStartAndIsNotEchoed() {
        String shortKey = "tooShort-s3cr3t";

        assertThatThrownBy(() -> new GateBeans().gateSignature(withKey(shortKey)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shorter than 32 bytes")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(shortKey));
    }

    @Test
    void aLongEnoughKeySignsLikeTheSharedGateSignature() {
        String key = "k".repeat(32);
        byte[] value = "{\"x\":1}".getBytes();

        GateSignature signature = new GateBeans().gateSignature(withKey(key));

        assertThat(signature.sign(value)).isEqualTo(new GateSignature(key).sign(value)).hasSize(64);
    }
}
