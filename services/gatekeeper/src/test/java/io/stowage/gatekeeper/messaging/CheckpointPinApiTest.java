package io.stowage.gatekeeper.messaging;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.stowage.auth.TestTokens;
import io.stowage.events.CheckpointPinned;
import io.stowage.events.EventCodec;
import io.stowage.events.ReleaseRefused;
import io.stowage.events.Topics;
import io.stowage.stack.KafkaProbe;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /api/checkpoints/pins} against the real broker: an operator's pin is sent as {@code checkpoint.pinned}
 * keyed by the step's asset id in the token's name; a reader is refused (403, recorded as release.refused); a bad
 * name or a missing field is 400. {@code POST /api/checkpoints/leases}: a reader's lease is sent as a
 * {@code checkpoint.pinned} with {@code leaseUntil} = now + seconds; a lease of 0 s or above the maximum is 400, no
 * token is 401.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
@QuarkusTestResource(LedgerStub.class)
class CheckpointPinApiTest {

    @Test
    void anOperatorPinsAReaderCannotAndBadInputIs400() {
        KafkaProbe kafka = new KafkaProbe(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
        String run = "pin-" + UUID.randomUUID().toString().substring(0, 8);
        Instant started = Instant.now();

        String assetId = TestTokens.given().contentType(ContentType.JSON)
                .body(Map.of("experiment", "exp", "run", run, "step", 300, "pinned", true))
                .post("/api/checkpoints/pins").then().statusCode(202).extract().jsonPath().getString("assetId");

        assertThat(assetId).isEqualTo("checkpoint/exp/" + run + "/000000000300");
        CheckpointPinned pin = EventCodec.decode(CheckpointPinned.class, kafka.await(Topics.CHECKPOINT_PINNED, assetId).value());
        assertThat(pin.pinned()).isTrue();
        assertThat(pin.step()).isEqualTo(300);
        assertThat(pin.requestedBy()).isEqualTo("test-operator");

        TestTokens.givenReader().contentType(ContentType.JSON)
                .body(Map.of("experiment", "exp", "run", run, "step", 100, "pinned", true))
                .post("/api/checkpoints/pins").then().statusCode(403);
        ReleaseRefused refused = EventCodec.decode(ReleaseRefused.class, kafka.await(Topics.RELEASE_REFUSED, r -> {
            ReleaseRefused e = EventCodec.decode(ReleaseRefused.class, r.value());
            return e.path().equals("/api/checkpoints/pins") && !e.meta().time().isBefore(started.minusSeconds(1));
        }, 1).get(0).value());
        assertThat(refused.tokenName()).isEqualTo("test-reader");

        TestTokens.given().contentType(ContentType.JSON).body(Map.of("experiment", "exp", "run", "bad run", "step", 1,
                "pinned", true)).post("/api/checkpoints/pins").then().statusCode(400);
        TestTokens.given().contentType(ContentType.JSON).body(Map.of("experiment", "exp", "run", run))
                .post("/api/checkpoints/pins").then().statusCode(400);
    }

    @Test
    void aReaderLeasesAStepForABoundedTime() {
        KafkaProbe kafka = new KafkaProbe(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
        String run = "lease-" + UUID.randomUUID().toString().substring(0, 8);
        Instant before = Instant.now();

        String assetId = TestTokens.givenReader().contentType(ContentType.JSON)
                .body(Map.of("experiment", "exp", "run", run, "step", 100, "seconds", 3600))
                .post("/api/checkpoints/leases").then().statusCode(202).extract().jsonPath().getString("assetId");

        assertThat(assetId).isEqualTo("checkpoint/exp/" + run + "/000000000100");
        CheckpointPinned lease = EventCodec.decode(CheckpointPinned.class, kafka.await(Topics.CHECKPOINT_PINNED, assetId).value());
        assertThat(lease.isLease()).isTrue();
        assertThat(lease.pinned()).isTrue();
        assertThat(lease.requestedBy()).isEqualTo("test-reader");
        assertThat(lease.leaseUntil()).isEqualTo(lease.meta().time().plusSeconds(3600))
                .isBetween(before.plusSeconds(3599), Instant.now().plusSeconds(3601));

        for (long seconds : new long[] {0, -5, 7L * 24 * 3600 + 1}) {
            TestTokens.givenReader().contentType(ContentType.JSON)
                    .body(Map.of("experiment", "exp", "run", run, "step", 100, "seconds", seconds))
                    .post("/api/checkpoints/leases").then().statusCode(400);
        }
        io.restassured.RestAssured.given().contentType(ContentType.JSON)
                .body(Map.of("experiment", "exp", "run", run, "step", 100, "seconds", 60))
                .post("/api/checkpoints/leases").then().statusCode(401);
    }
}
