package io.stowage.console.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SafeNextTest {
    @Test
    void aSignInRedirectsOnlyToALocalPath() {
        assertThat(SigninResource.safeNext("/runs/e/r")).isEqualTo("/runs/e/r");
        assertThat(SigninResource.safeNext("/free?x=1")).isEqualTo("/free?x=1");
        assertThat(SigninResource.safeNext(null)).isEqualTo("/");
        assertThat(SigninResource.safeNext("https://evil.example/")).isEqualTo("/");
        assertThat(SigninResource.safeNext("//evil.example/")).isEqualTo("/");
        assertThat(SigninResource.safeNext("/\\evil.example")).isEqualTo("/");
    }
}
