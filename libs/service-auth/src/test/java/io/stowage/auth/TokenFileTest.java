package io.stowage.auth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The tokens file as a service reads it: lines with and without expiry, re-read when it changes (at most once per
 * interval, by a controllable clock), refused as a whole while it is malformed, and the configured tokens unaffected.
 */
class TokenFileTest {
    private static final Duration INTERVAL = Duration.ofSeconds(1);

    /** A clock the test moves. */
    static final class StepClock extends Clock {
        Instant now = Instant.parse("2026-12-01T10:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private final StepClock clock = new StepClock();
    private final List<String> log = new ArrayList<>();
    private final String alice = TokenTable.newToken();
    private final String bob = TokenTable.newToken();
    private final String carol = TokenTable.newToken();

    @Test
    void aLineMayCarryAnExpiryInstantAndPrintsBackWithIt() {
        String hash = TokenTable.sha256Hex(alice);
        TokenEntry entry = TokenEntry.parse("reader:ci-bot:" + hash + ":2027-01-31T00:00:00Z");
        assertThat(entry.expiresAt()).isEqualTo(Instant.parse("2027-01-31T00:00:00Z"));
        assertThat(entry.line()).isEqualTo("reader:ci-bot:" + hash + ":2027-01-31T00:00:00Z");
        assertThat(entry.expiredAt(Instant.parse("2027-01-30T23:59:59Z"))).isFalse();
        assertThat(entry.expiredAt(Instant.parse("2027-01-31T00:00:00Z"))).as("refused from the instant on").isTrue();
        assertThat(TokenEntry.parse("reader:ci-bot:" + hash).expiresAt()).isNull();
        assertThatThrownBy(() -> TokenEntry.parse("reader:ci-bot:" + hash + ":next-tuesday"))
                .hasMessageContaining("ISO-8601").satisfies(e -> assertThat(e.getMessage()).doesNotContain("next-tuesday"));
    }

    @Test
    void anAppendedLineIsAcceptedAfterTheIntervalAndARemovedOneIsUnknown(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("hashes");
        write(file, "# session", line("operator", "alice", alice));
        AcceptedTokens tokens = tokens(List.of(), file);
        assertThat(tokens.check(alice).entry().name()).isEqualTo("alice");
        assertThat(tokens.check(bob).reason()).isEqualTo(RefusedRequest.UNKNOWN_TOKEN);

        write(file, line("operator", "alice", alice), line("reader", "bob", bob));
        assertThat(tokens.check(bob).reason()).as("not looked at again within the interval").isEqualTo(RefusedRequest.UNKNOWN_TOKEN);
        clock.advance(INTERVAL);
        assertThat(tokens.check(bob).accepted()).isTrue();
        assertThat(tokens.check(bob).entry().role()).isEqualTo("reader");

        write(file, line("reader", "bob", bob));
        clock.advance(INTERVAL);
        assertThat(tokens.check(alice)).extracting(TokenVerdict::reason, TokenVerdict::entry)
                .containsExactly(RefusedRequest.UNKNOWN_TOKEN, null);
        assertThat(tokens.check(bob).accepted()).isTrue();
        assertThat(String.join("\n", log)).contains("1 token(s) (reader:bob)").doesNotContain(TokenTable.sha256Hex(bob));
    }

    @Test
    void anExpiredTokenIsRefusedAsExpiredWithItsName(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("hashes");
        write(file, line("reader", "ci-bot", alice) + ":2026-12-01T10:00:05Z");
        AcceptedTokens tokens = tokens(List.of(), file);
        assertThat(tokens.check(alice).accepted()).isTrue();
        clock.advance(Duration.ofSeconds(5));
        TokenVerdict verdict = tokens.check(alice);
        assertThat(verdict.reason()).isEqualTo(RefusedRequest.EXPIRED_TOKEN);
        assertThat(verdict.entry().name()).isEqualTo("ci-bot");
    }

    @Test
    void aMalformedReloadRefusesEveryFileTokenUntilFixedAndKeepsTheConfiguredOnes(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("hashes");
        write(file, line("operator", "alice", alice), line("reader", "bob", bob));
        AcceptedTokens tokens = tokens(List.of(TokenEntry.parse(line("operator", "config-op", carol))), file);

        String pasted = TokenTable.newToken();
        write(file, line("operator", "alice", alice), "# a comment", "reader:bob:" + pasted);
        clock.advance(INTERVAL);
        assertThat(tokens.check(alice).reason()).as("nothing of a bad file is used, not even its good lines")
                .isEqualTo(RefusedRequest.TOKENS_FILE_INVALID);
        assertThat(tokens.check(bob).accepted()).isFalse();
        assertThat(tokens.check(carol).accepted()).as("configured tokens keep working").isTrue();
        assertThat(log).hasSize(1);
        assertThat(log.get(0)).contains(file + " line 3").contains("refused until it is fixed")
                .doesNotContain(pasted).doesNotContain("bob").doesNotContain(TokenTable.sha256Hex(alice));

        clock.advance(INTERVAL);
        tokens.check(alice);
        assertThat(log).as("one line per bad version, not one per request").hasSize(1);

        write(file, line("operator", "alice", alice));
        clock.advance(INTERVAL);
        assertThat(tokens.check(alice).accepted()).isTrue();
        assertThat(tokens.check(bob).reason()).isEqualTo(RefusedRequest.UNKNOWN_TOKEN);
    }

    @Test
    void aFileThatDisappearsRefusesItsTokensAndADuplicateHashIsMalformed(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("hashes");
        write(file, line("operator", "alice", alice));
        AcceptedTokens tokens = tokens(List.of(), file);
        Files.delete(file);
        clock.advance(INTERVAL);
        assertThat(tokens.check(alice).reason()).isEqualTo(RefusedRequest.TOKENS_FILE_INVALID);

        write(file, line("operator", "alice", alice), line("reader", "alias", alice));
        clock.advance(INTERVAL);
        assertThat(tokens.check(alice).reason()).isEqualTo(RefusedRequest.TOKENS_FILE_INVALID);
        assertThat(log.get(log.size() - 1)).contains("line 2: the same hash as line 1");
    }

    @Test
    void atStartUpAMalformedOrMissingFileIsAnErrorNamingTheLine(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("hashes");
        write(file, "", line("reader", "bob", bob), "reader:bob");
        assertThatThrownBy(() -> TokenFile.open(file, clock, INTERVAL, log::add, log::add)).hasMessageContaining("line 3:")
                .hasMessageContaining("<role>:<name>:<sha256-hex>");
        assertThatThrownBy(() -> TokenFile.open(dir.resolve("absent"), clock, INTERVAL, log::add, log::add))
                .hasMessageContaining("cannot read stowage.auth.tokens-file");
    }

    private AcceptedTokens tokens(List<TokenEntry> configured, Path file) {
        return new AcceptedTokens(configured, TokenFile.open(file, clock, INTERVAL, log::add, log::add), clock);
    }

    private static String line(String role, String name, String token) {
        return role + ":" + name + ":" + TokenTable.sha256Hex(token);
    }

    /** Writes the file as the CLI does: a temporary file renamed over it (a new inode each time). */
    private static void write(Path file, String... lines) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, List.of(lines));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
