package io.stowage.provideradapter.messaging;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.FailedCondition;
import io.stowage.events.GateDenied;
import io.stowage.events.ProviderAlert;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.Topics;
import io.stowage.events.VolumeCreated;
import io.stowage.stack.KafkaProbe;
import io.stowage.stack.StowageStackResource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The volume lifecycle inside the running provider-adapter against the real Kafka broker: the HTTP API creates a
 * local volume (volume.created on Kafka), a sweep at its TTL asks the gate (volume.release.requested for its
 * directory), and a gate.denied for that request comes back as a provider.alert naming the blocking file.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class VolumeLifecycleFlowTest {

    @Test
    void aVolumesTtlGoesThroughTheGateAndADenialBecomesAnAlertNamingTheFile() throws Exception {
        KafkaProbe kafka = new KafkaProbe(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
        String name = "flow-" + UUID.randomUUID().toString().substring(0, 8);
        JsonPath volume = given().contentType(ContentType.JSON)
                .body(Map.of("name", name, "purpose", "scratch", "sizeGb", 2, "ttlSeconds", 3600, "runId", "run-f"))
                .post("/api/volumes").then().statusCode(201).extract().jsonPath();
        String id = volume.getString("id");
        Path dir = Path.of(volume.getString("path"));
        Instant created = Instant.parse(volume.getString("createdAt"));

        ConsumerRecord<String, byte[]> createdRecord = kafka.await(Topics.VOLUME_CREATED, "volume/" + id);
        VolumeCreated event = EventCodec.decode(VolumeCreated.class, createdRecord.value());
        assertThat(event.name()).isEqualTo(name);
        assertThat(event.sizeGb()).isEqualTo(2);
        assertThat(event.expiresAt()).isEqualTo(created.plusSeconds(3600));
        assertThat(KafkaProbe.header(createdRecord, CloudEventHeaders.SOURCE)).isEqualTo("/stowage/provider-adapter");
        assertThat(KafkaProbe.header(createdRecord, CloudEventHeaders.TYPE)).isEqualTo("io.stowage.volume.created.v1");
        Path notes = Files.writeString(dir.resolve("notes.txt"), "never archived");

        given().post("/api/sweep?at=" + created.plus(Duration.ofHours(1))).then().statusCode(200);
        String requestId = given().get("/api/volumes/" + id).then().statusCode(200).extract().jsonPath()
                .getString("releaseRequestId");
        ReleaseRequested request = EventCodec.decode(ReleaseRequested.class,
                kafka.await(Topics.VOLUME_RELEASE_REQUESTED, "release/" + requestId).value());
        assertThat(request.path()).isEqualTo(dir.toString());
        assertThat(request.requestedBy()).isEqualTo("provider-adapter");

        GateDenied denied = GateDenied.of(EventMeta.causedBy(request, Clock.systemUTC()), requestId, dir.toString(),
                false, List.of(new FailedCondition(5, "unaccounted-file", "file in no manifest of an asset: notes.txt")));
        kafka.send(denied.topic(), denied.assetId(), EventCodec.encode(denied),
                CloudEventHeaders.of(denied, "/stowage/gatekeeper"));

        List<ConsumerRecord<String, byte[]>> alerts = kafka.await(Topics.PROVIDER_ALERT,
                r -> ("volume/" + id).equals(r.key()), 2);
        ProviderAlert ttl = EventCodec.decode(ProviderAlert.class, alerts.get(0).value());
        ProviderAlert blocked = EventCodec.decode(ProviderAlert.class, alerts.get(1).value());
        assertThat(ttl.code()).isEqualTo("ttl-reached");
        assertThat(blocked.code()).isEqualTo("release-blocked");
        assertThat(blocked.blockers()).containsExactly("5 unaccounted-file: file in no manifest of an asset: notes.txt");
        assertThat(blocked.requestId()).isEqualTo(requestId);
        assertThat(blocked.meta().causationId()).isEqualTo(denied.meta().eventId());
        assertThat(given().get("/api/volumes/" + id).then().extract().jsonPath().getString("state")).isEqualTo("BLOCKED");
        assertThat(notes).hasContent("never archived");
    }

    @Test
    void aBadRequestIsRefusedAndAnUnknownVolumeIs404() {
        given().contentType(ContentType.JSON).body(Map.of("name", "../etc", "sizeGb", 5))
                .post("/api/volumes").then().statusCode(400);
        given().contentType(ContentType.JSON).body(Map.of("name", "huge", "sizeGb", 4001))
                .post("/api/volumes").then().statusCode(400);
        given().post("/api/volumes/vol-nope/release").then().statusCode(404);
        given().post("/api/pods/pod-nope/terminate").then().statusCode(404);
    }
}
