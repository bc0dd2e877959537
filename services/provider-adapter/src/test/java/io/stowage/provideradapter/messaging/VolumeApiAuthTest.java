package io.stowage.provideradapter.messaging;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.stowage.auth.TestTokens;
import io.stowage.events.EventCodec;
import io.stowage.events.ReleaseRefused;
import io.stowage.events.Topics;
import io.stowage.stack.KafkaProbe;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The provider-adapter's API behind bearer tokens, against the real broker: a reader lists volumes but
 * may not create one (403) or release one (403), an unknown or missing token is 401; each refused release leaves the
 * volume ACTIVE and its directory in place and is recorded as {@code release.refused}; an operator creates (201).
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class VolumeApiAuthTest {

    @Test
    void onlyAnOperatorChangesVolumesAndRefusedReleasesAreRecorded() {
        KafkaProbe kafka = new KafkaProbe(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
        Map<String, Object> spec = Map.of("name", "auth-" + UUID.randomUUID().toString().substring(0, 8),
                "purpose", "scratch", "sizeGb", 1, "ttlSeconds", 0);
        TestTokens.givenReader().contentType(ContentType.JSON).body(spec).post("/api/volumes").then().statusCode(403);
        RestAssured.given().contentType(ContentType.JSON).body(spec).post("/api/volumes").then().statusCode(401);
        JsonPath volume = TestTokens.given().contentType(ContentType.JSON).body(spec).post("/api/volumes")
                .then().statusCode(201).extract().jsonPath();
        String id = volume.getString("id");
        Path dir = Path.of(volume.getString("path"));
        TestTokens.givenReader().get("/api/volumes").then().statusCode(200);
        RestAssured.given().get("/api/volumes").then().statusCode(401);

        TestTokens.givenReader().post("/api/volumes/" + id + "/release").then().statusCode(403);
        RestAssured.given().auth().oauth2("wrong-" + UUID.randomUUID()).post("/api/volumes/" + id + "/release")
                .then().statusCode(401);

        String path = "/api/volumes/" + id + "/release";
        var records = kafka.await(Topics.RELEASE_REFUSED, r -> EventCodec.decode(ReleaseRefused.class, r.value())
                .path().equals(path), 2);
        var first = EventCodec.decode(ReleaseRefused.class, records.get(0).value());
        var second = EventCodec.decode(ReleaseRefused.class, records.get(1).value());
        assertThat(java.util.List.of(first.status() + " " + first.reason() + " " + first.tokenName(),
                second.status() + " " + second.reason() + " " + second.tokenName()))
                .containsExactlyInAnyOrder("403 insufficient-role test-reader", "401 unknown-token null");
        assertThat(first.service()).isEqualTo("provider-adapter");
        assertThat(TestTokens.givenReader().get("/api/volumes/" + id).then().statusCode(200).extract().jsonPath()
                .getString("state")).isEqualTo("ACTIVE");
        assertThat(Files.isDirectory(dir)).isTrue();
    }
}
