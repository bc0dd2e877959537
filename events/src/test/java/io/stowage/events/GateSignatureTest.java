package io.stowage.events;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GateSignatureTest {
    private static final String KEY = "k".repeat(32);

    @Test
    void signsWithHmacSha256AndVerifiesOnlyTheExactBytesUnderTheSameKey() {
        GateSignature gate = new GateSignature(KEY);
        byte[] value = "{\"path\":\"/hot/a\"}".getBytes(StandardCharsets.UTF_8);
        String signature = gate.sign(value);
        // RFC 2104 HMAC-SHA256, cross-checked with: printf '%s' '{"path":"/hot/a"}' | openssl dgst -sha256 -hmac kkkk…(32)
        assertThat(signature).isEqualTo("9fec7f182ac0b2403862937388b6858d6002b9183dfd377dcf3c83712de6f1bf");
        assertThat(gate.verifies(value, signature)).isTrue();
        assertThat(gate.verifies("{\"path\":\"/hot/b\"}".getBytes(StandardCharsets.UTF_8), signature)).isFalse();
        assertThat(new GateSignature("x".repeat(32)).verifies(value, signature)).isFalse();
        assertThat(gate.verifies(value, null)).isFalse();
        assertThat(gate.verifies(value, signature.toUpperCase())).isFalse();
    }

    @Test
    void refusesAMissingOrShortKeyWithoutEchoingIt() {
        assertThatThrownBy(() -> new GateSignature(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GateSignature("short-secret")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("short-secret");
    }
}
