package io.stowage.ledger.it;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.stowage.auth.TestTokens;
import io.stowage.events.EventMeta;
import io.stowage.events.ReleaseRefused;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The ledger's API behind bearer tokens, against the real broker and PostgreSQL: no token and an unknown
 * token are 401 with a Bearer challenge, a reader reads, a reader may not start a replay (403) while an operator may
 * reach it, health stays open; a {@code release.refused} event is projected and served to a reader on
 * {@code /api/refusals}; the configuration holds only hashes.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class TokenAuthTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    @Test
    void missingOrUnknownTokensAre401AndAReaderReads() {
        RestAssured.given().get("/api/status").then().statusCode(401).header("WWW-Authenticate", "Bearer realm=\"stowage\"");
        RestAssured.given().auth().oauth2("not-a-token").get("/api/status").then().statusCode(401);
        RestAssured.given().header("Authorization", "Basic dGVzdDp0ZXN0").get("/api/status").then().statusCode(401);
        // the hash of a token is not a token
        RestAssured.given().auth().oauth2("226b2cc4bd9718aa4f9666450472ee054b913cd0ea8dad1f559a863629dab9f1")
                .get("/api/status").then().statusCode(401);
        TestTokens.givenReader().get("/api/status").then().statusCode(200);
        TestTokens.given().get("/api/status").then().statusCode(200);
        RestAssured.given().get("/q/health/ready").then().statusCode(200);
    }

    @Test
    void aReaderMayNotStartAReplayAndNothingIsReplayed() {
        TestTokens.givenReader().queryParam("scope", "reader-try").post("/api/audit/replay").then().statusCode(403);
        RestAssured.given().queryParam("scope", "anonymous-try").post("/api/audit/replay").then().statusCode(401);
    }

    @Test
    void aRefusedReleaseIsProjectedAndServedToAReader() throws Exception {
        String refusalId = UUID.randomUUID().toString();
        ReleaseRefused refused = ReleaseRefused.of(EventMeta.first(refusalId, Clock.systemUTC()), refusalId, "gatekeeper",
                "POST", "/api/releases", 403, "insufficient-role", "ci-reader", "reader", "127.0.0.1:50000");
        try (TestProducer producer = new TestProducer(bootstrapServers)) {
            producer.send(refused);
        }

        List<Map<String, Object>> rows = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> TestTokens.givenReader().queryParam("limit", 1000).get("/api/refusals").then().statusCode(200)
                        .extract().jsonPath().<Map<String, Object>>getList("").stream()
                        .filter(r -> refusalId.equals(r.get("refusalId"))).toList(), list -> list.size() == 1);

        Map<String, Object> row = rows.get(0);
        assertThat(row).containsEntry("eventId", refused.meta().eventId()).containsEntry("service", "gatekeeper")
                .containsEntry("method", "POST").containsEntry("path", "/api/releases").containsEntry("status", 403)
                .containsEntry("reason", "insufficient-role").containsEntry("tokenName", "ci-reader")
                .containsEntry("tokenRole", "reader").containsEntry("remote", "127.0.0.1:50000");
        JsonPath event = TestTokens.givenReader().get("/api/events/" + refused.meta().eventId()).then().statusCode(200)
                .extract().jsonPath();
        assertThat(event.getString("topic")).isEqualTo("release.refused");
        assertThat(event.getString("assetId")).isEqualTo("release/" + refusalId);
        TestTokens.givenReader().queryParam("limit", 0).get("/api/refusals").then().statusCode(400);
        RestAssured.given().get("/api/refusals").then().statusCode(401);
    }

    @Test
    void theConfigurationHoldsHashesNotTokens() {
        String configured = ConfigProvider.getConfig().getValue("stowage.auth.tokens", String.class);
        assertThat(configured).doesNotContain(TestTokens.OPERATOR).doesNotContain(TestTokens.READER)
                .contains("operator:test-operator:" + io.stowage.auth.TokenTable.sha256Hex(TestTokens.OPERATOR))
                .contains("reader:test-reader:" + io.stowage.auth.TokenTable.sha256Hex(TestTokens.READER));
    }
}
