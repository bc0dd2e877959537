package io.stowage.cli.platform;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.auth.TokenEntry;
import io.stowage.cli.CliException;
import io.stowage.cli.CliRun;
import io.stowage.cli.CliRun.Result;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.output.Progress;
import io.stowage.events.EventCodec;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tokens of a running {@code stowage up}, through the six packaged services as it starts them: {@code token create}
 * adds a hash line to the services' tokens file and the new token works within seconds without a restart;
 * {@code token list} shows it; a second token of that name is refused (exit 2); {@code token revoke --dry-run} changes
 * nothing; {@code token revoke} makes every command, {@code release} included, exit 4 with the reason
 * {@code unknown-token}; a token made with {@code --expires} exits 4 {@code expired-token} once it has expired.
 */
class TokenLifecycleEndToEndTest {
    private static Path work;
    private static Platform platform;
    private static String operator;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("stowage-tokens-e2e-");
        platform = Platform.start(work, List.of(work), List.of(), new Progress(System.err, false));
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
        operator = Files.readString(work.resolve("tokens").resolve(BearerToken.OPERATOR_FILE)).strip();
        System.setProperty("stowage.token", operator);
    }

    @AfterAll
    static void stop() {
        System.clearProperty("stowage.home");
        System.clearProperty("stowage.token");
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    void aCreatedTokenWorksWithoutARestartAndARevokedOneIsExitFourEverywhere() throws Exception {
        Path file = work.resolve("tokens").resolve(TokensFile.NAME);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        long ledgerPid = platform.pid("ledger");

        Result created = CliRun.run("token", "create", "--role", "reader", "--name", "ci-bot", "--json");
        assertThat(created.exit()).as(created.err()).isZero();
        JsonNode json = EventCodec.mapper().readTree(created.out());
        String token = json.get("token").asText();
        assertThat(json.get("added").asBoolean()).isTrue();
        assertThat(json.get("file").asText()).isEqualTo(file.toString());
        assertThat(Files.readAllLines(file)).contains(json.get("line").asText()).noneMatch(l -> l.contains(token));
        assertThat(TokenEntry.parse(json.get("line").asText()).name()).isEqualTo("ci-bot");

        Awaitility.await("the new token is accepted").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                .until(() -> as(token, "status", "--json").exit() == 0);
        assertThat(platform.pid("ledger")).as("no service was restarted").isEqualTo(ledgerPid);

        Result list = CliRun.run("token", "list", "--json");
        assertThat(list.exit()).isZero();
        String names = java.util.stream.StreamSupport.stream(EventCodec.mapper().readTree(list.out()).get("tokens").spliterator(), false)
                .map(t -> t.get("name").asText() + ":" + t.get("role").asText()).collect(Collectors.joining(","));
        assertThat(names).contains("cli-operator:operator", "cli-reader:reader", "services:reader", "ci-bot:reader");
        assertThat(list.out()).doesNotContain(TokenEntry.parse(json.get("line").asText()).line().split(":")[2]);

        assertThat(CliRun.run("token", "create", "--role", "operator", "--name", "ci-bot").exit())
                .as("a second ci-bot").isEqualTo(CliException.USAGE);

        Result dry = CliRun.run("token", "revoke", "--name", "ci-bot", "--dry-run");
        assertThat(dry.exit()).isZero();
        assertThat(dry.out()).startsWith("would revoke ci-bot (reader)");
        assertThat(as(token, "status", "--json").exit()).as("a dry run changes nothing").isZero();

        Result revoked = CliRun.run("token", "revoke", "--name", "ci-bot", "--json");
        assertThat(revoked.exit()).as(revoked.err()).isZero();
        assertThat(Files.readString(file)).doesNotContain("ci-bot");
        Awaitility.await("the revoked token is refused").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                .until(() -> as(token, "status").exit() == CliException.UNAUTHORISED);
        Result status = as(token, "status");
        assertThat(status.out()).isEmpty();
        assertThat(status.err()).startsWith("stowage: /api/status refused: no or unknown bearer token (401 unknown-token")
                .hasLineCount(1).doesNotContain(token);

        Path target = Files.createTempDirectory("stowage-tokens-release-");
        Files.writeString(target.resolve("kept.bin"), "kept");
        Result release = as(token, "release", target.toString());
        assertThat(release.exit()).as("a refused token is exit 4 in a release too, not a gate denial").isEqualTo(4);
        assertThat(release.err()).startsWith("stowage: /api/releases refused: no or unknown bearer token (401 unknown-token")
                .hasLineCount(1);
        assertThat(target.resolve("kept.bin")).hasContent("kept");

        Result reader = as(Files.readString(work.resolve("tokens").resolve(BearerToken.READER_FILE)).strip(), "release",
                target.toString());
        assertThat(reader.exit()).isEqualTo(4);
        assertThat(reader.err()).contains("(403: role reader may not call this endpoint)");
    }

    @Test
    void aTokenCreatedWithAnExpiryIsExitFourExpiredOnceItHasExpired() throws Exception {
        Result created = CliRun.run("token", "create", "--role", "reader", "--name", "short-lived", "--expires", "PT4S", "--json");
        assertThat(created.exit()).as(created.err()).isZero();
        JsonNode json = EventCodec.mapper().readTree(created.out());
        String token = json.get("token").asText();
        assertThat(TokenEntry.parse(json.get("line").asText()).expiresAt()).isNotNull();

        Awaitility.await("refused as expired").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> as(token, "status").err().contains("401 expired-token"));
        Result expired = as(token, "status");
        assertThat(expired.exit()).isEqualTo(CliException.UNAUTHORISED);
        assertThat(expired.err()).startsWith("stowage: /api/status refused: the token has expired").hasLineCount(1);
        assertThat(CliRun.run("token", "list").out()).containsPattern("short-lived +reader +expired ");
    }

    private static Result as(String token, String... args) {
        System.setProperty("stowage.token", token);
        try {
            return CliRun.run(args);
        } finally {
            System.setProperty("stowage.token", operator);
        }
    }
}
