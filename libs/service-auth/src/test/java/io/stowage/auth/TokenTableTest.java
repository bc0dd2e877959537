package io.stowage.auth;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenTableTest {

    @Test
    void sha256HexIsTheKnownDigestOfTheTokenBytes() {
        // sha256("test") from coreutils: printf test | sha256sum
        assertThat(TokenTable.sha256Hex("test")).isEqualTo("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
    }

    @Test
    void aPresentedTokenFindsItsEntryByHashAndAnotherFindsNothing() {
        String alice = TokenTable.newToken();
        String bob = TokenTable.newToken();
        TokenTable table = new TokenTable(List.of(
                TokenEntry.parse("operator:alice:" + TokenTable.sha256Hex(alice)),
                TokenEntry.parse(" reader:bob:" + TokenTable.sha256Hex(bob).toUpperCase() + " ")));

        assertThat(table.find(alice)).get().extracting(TokenEntry::name, TokenEntry::role).containsExactly("alice", "operator");
        assertThat(table.find(bob)).get().extracting(TokenEntry::name, TokenEntry::role).containsExactly("bob", "reader");
        assertThat(table.find(TokenTable.sha256Hex(alice))).as("the hash itself is not a token").isEmpty();
        assertThat(table.find("")).isEmpty();
        assertThat(table.find(alice + "x")).isEmpty();
    }

    @Test
    void newTokensAre43UrlSafeCharactersAndDiffer() {
        String a = TokenTable.newToken();
        assertThat(a).hasSize(43).matches("[A-Za-z0-9_-]+");
        assertThat(TokenTable.newToken()).isNotEqualTo(a);
    }

    @Test
    void aLineWithThePlainTokenInsteadOfItsHashIsRefusedWithoutEchoingIt() {
        String token = TokenTable.newToken();
        assertThatThrownBy(() -> TokenEntry.parse("operator:alice:" + token))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("64 hex digits")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(token));
        assertThatThrownBy(() -> TokenEntry.parse("admin:alice:" + TokenTable.sha256Hex(token)))
                .hasMessageContaining("role) must be reader or operator");
        assertThatThrownBy(() -> TokenEntry.parse("reader:" + TokenTable.sha256Hex(token)))
                .hasMessageContaining("<role>:<name>:<sha256-hex>");
    }

    @Test
    void anOperatorIsAlsoAReaderAndAReaderOnlyAReader() {
        assertThat(Roles.grantedBy("operator")).containsExactlyInAnyOrder("operator", "reader");
        assertThat(Roles.grantedBy("reader")).containsExactly("reader");
    }

    @Test
    void twoEntriesWithOneHashAreRefused() {
        String hash = TokenTable.sha256Hex("same");
        assertThatThrownBy(() -> new TokenTable(List.of(TokenEntry.parse("reader:a:" + hash), TokenEntry.parse("operator:b:" + hash))))
                .hasMessageContaining("same hash");
    }

    @Test
    void anEntryPrintsBackAsTheLineItWasParsedFrom() {
        String line = "operator:ci-bot:" + TokenTable.sha256Hex("x");
        assertThat(TokenEntry.parse(line).line()).isEqualTo(line);
    }
}
