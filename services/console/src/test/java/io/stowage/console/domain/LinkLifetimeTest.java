package io.stowage.console.domain;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A link's lifetime as typed: a whole number and a unit; blank is 24 hours; the verifier enforces the bounds. */
class LinkLifetimeTest {
    @Test
    void unitsConvertToSeconds() {
        assertThat(LinkLifetime.seconds("90m")).isEqualTo(5_400);
        assertThat(LinkLifetime.seconds(" 24h ")).isEqualTo(86_400);
        assertThat(LinkLifetime.seconds("7d")).isEqualTo(604_800);
        assertThat(LinkLifetime.seconds("8d")).as("the verifier refuses it, naming the limit").isEqualTo(691_200);
        assertThat(LinkLifetime.seconds("3600s")).isEqualTo(3_600);
        assertThat(LinkLifetime.seconds("")).isEqualTo(86_400);
        assertThat(LinkLifetime.seconds(null)).isEqualTo(86_400);
    }

    @Test
    void anythingElseIsNamed() {
        for (String bad : new String[] {"a week", "1w", "-1h", "1.5h", "PT1H", "h"}) {
            assertThatThrownBy(() -> LinkLifetime.seconds(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "' is not a lifetime");
        }
    }
}
