package io.stowage.gatekeeper.api;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.stowage.auth.TestTokens;
import io.stowage.auth.TokenTable;
import io.stowage.gatekeeper.messaging.LedgerStub;
import io.stowage.stack.StowageStackResource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The gatekeeper with a tokens file ({@code stowage.auth.tokens-file}), changed while it runs: a line appended is
 * accepted without a restart, a line removed is 401 {@code unknown-token}, a line whose expiry has passed is 401
 * {@code expired-token}, a malformed file refuses its tokens ({@code tokens-file-invalid}) while the configured ones
 * keep working; every refusal's body says why and holds no token; a reader on an operator endpoint is 403 with its body.
 */
@QuarkusTest
@TestProfile(TokensFileReloadTest.WithTokensFile.class)
@QuarkusTestResource(StowageStackResource.class)
@QuarkusTestResource(LedgerStub.class)
class TokensFileReloadTest {
    private static final Path DIR = tempDir();
    private static final Path FILE = DIR.resolve("hashes");
    private static final String FIRST = TokenTable.newToken();

    /** Points the gatekeeper at a tokens file written before it starts, and at an empty volume root. */
    public static final class WithTokensFile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            write(line("reader", "first-reader", FIRST));
            return Map.of("stowage.auth.tokens-file", FILE.toString(),
                    "stowage.gatekeeper.volume-roots", DIR.resolve("volumes").toString());
        }
    }

    @BeforeEach
    void onlyTheFirstReaderInTheFile() {
        write(line("reader", "first-reader", FIRST));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(read(FIRST).statusCode()).isEqualTo(200));
    }

    @Test
    void anAppendedTokenWorksWithoutARestartAndARemovedOneIsUnknown() {
        String late = TokenTable.newToken();
        assertRefused(read(late), "unknown-token", late);

        write(line("reader", "first-reader", FIRST), line("reader", "late-reader", late));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(read(late).statusCode()).isEqualTo(200));

        write(line("reader", "late-reader", late));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertRefused(read(FIRST), "unknown-token", FIRST));
        assertThat(read(late).statusCode()).isEqualTo(200);
    }

    @Test
    void anExpiredTokenIs401ExpiredAndOneNotYetExpiredWorks() {
        String expired = TokenTable.newToken();
        String current = TokenTable.newToken();
        write(line("reader", "first-reader", FIRST), line("reader", "old-bot", expired) + ":" + Instant.now().minusSeconds(60),
                line("reader", "new-bot", current) + ":" + Instant.now().plus(Duration.ofDays(30)));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(read(current).statusCode()).isEqualTo(200));
        assertRefused(read(expired), "expired-token", expired);
    }

    @Test
    void aMalformedFileRefusesItsTokensUntilFixedWhileConfiguredTokensWork() {
        write(line("reader", "first-reader", FIRST), "reader:pasted:" + TokenTable.newToken());
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertRefused(read(FIRST), "tokens-file-invalid", FIRST));
        assertThat(RestAssured.given().auth().oauth2(TestTokens.READER).get("/api/volume-directories").statusCode())
                .as("stowage.auth.tokens keeps working").isEqualTo(200);

        write(line("reader", "first-reader", FIRST));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(read(FIRST).statusCode()).isEqualTo(200));
    }

    @Test
    void eachRefusalSaysWhyAsJson() {
        Response none = RestAssured.given().get("/api/volume-directories");
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"stowage\"");
        assertThat(none.jsonPath().getMap("")).isEqualTo(Map.of("error", "unauthorized", "reason", "missing-token"));

        Response basic = RestAssured.given().header("Authorization", "Basic dXNlcjpwYXNz").get("/api/volume-directories");
        assertThat(basic.statusCode()).isEqualTo(401);
        assertThat(basic.jsonPath().getString("reason")).isEqualTo("malformed-header");

        Response reader = RestAssured.given().auth().oauth2(FIRST).contentType(ContentType.JSON)
                .body(Map.of("experiment", "e", "run", "r", "step", 1, "pinned", true)).post("/api/checkpoints/pins");
        assertThat(reader.statusCode()).isEqualTo(403);
        assertThat(reader.jsonPath().getMap("")).isEqualTo(Map.of("error", "forbidden",
                "reason", "role reader may not call this endpoint"));
        assertThat(reader.asString()).doesNotContain(FIRST);
    }

    private static Response read(String token) {
        return RestAssured.given().auth().oauth2(token).get("/api/volume-directories");
    }

    private static void assertRefused(Response response, String reason, String token) {
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"stowage\"");
        assertThat(response.jsonPath().getMap("")).isEqualTo(Map.of("error", "unauthorized", "reason", reason));
        assertThat(response.asString()).doesNotContain(token).doesNotContain(TokenTable.sha256Hex(token));
    }

    private static String line(String role, String name, String token) {
        return role + ":" + name + ":" + TokenTable.sha256Hex(token);
    }

    /** Replaces the file as {@code stowage token create} does: a temporary file renamed over it. */
    private static void write(String... lines) {
        try {
            Files.createDirectories(DIR.resolve("volumes"));
            Path tmp = DIR.resolve("hashes.tmp");
            Files.write(tmp, List.of(lines));
            Files.move(tmp, FILE, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("gatekeeper-tokens-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
