package io.stowage.stack;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The credentials of one stack start: random by default, checked alphabet, never printed. */
class StackCredentialsTest {
    @Test
    void randomCredentialsAreFreshEachTimeAndFitTheAlphabet() {
        StackCredentials a = StackCredentials.random();
        StackCredentials b = StackCredentials.random();
        assertThat(a.s3AccessKey()).matches("stowage-[0-9a-f]{16}");
        assertThat(a.s3SecretKey()).matches("[0-9a-f]{40}");
        assertThat(a.pgPassword()).matches("[0-9a-f]{32}");
        assertThat(a.s3SecretKey()).isNotEqualTo(b.s3SecretKey());
        assertThat(a.pgPassword()).isNotEqualTo(b.pgPassword());
    }

    @Test
    void aValueThatCouldBreakTheRoleStatementOrIsShortIsRefusedWithoutShowingIt() {
        assertThatThrownBy(() -> new StackCredentials("access-key-0123456789", "secret-key-0123456789", "pw' or '1'='1' --x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("pgPassword ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("or '1'"));
        assertThatThrownBy(() -> new StackCredentials("short", "secret-key-0123456789", "password-0123456789"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("s3AccessKey ");
    }

    @Test
    void toStringShowsNoValue() {
        StackCredentials c = new StackCredentials("CANARY-access-key-1", "CANARY-secret-key-1", "CANARY-password-1");
        assertThat(c.toString()).isEqualTo("StackCredentials[****]");
    }
}
