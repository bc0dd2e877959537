package io.stowage.auth;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class TestTokensTest {
    @Test
    void theConfiguredTestHashesAreThoseOfTheTestTokens() {
        TokenTable table = new TokenTable(Arrays.stream(TestTokens.CONFIG.split(",")).map(TokenEntry::parse).toList());
        assertThat(table.find(TestTokens.OPERATOR)).get().extracting(TokenEntry::role).isEqualTo(Roles.OPERATOR);
        assertThat(table.find(TestTokens.READER)).get().extracting(TokenEntry::role).isEqualTo(Roles.READER);
        assertThat(TestTokens.CONFIG).doesNotContain(TestTokens.OPERATOR).doesNotContain(TestTokens.READER);
    }
}
