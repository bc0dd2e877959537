package io.stowage.shardbuilder.api;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.stowage.stack.StowageStackResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;

/** With {@code stowage.shard-builder.allow-small-shards=true} a request needs no {@code allowSmallShards} field. */
@QuarkusTest
@TestProfile(SmallShardsConfigTest.AllowSmallShards.class)
@QuarkusTestResource(StowageStackResource.class)
class SmallShardsConfigTest {
    /** Switches the configuration override on. */
    public static class AllowSmallShards implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("stowage.shard-builder.allow-small-shards", "true");
        }
    }

    @TempDir
    Path tmp;

    @Test
    void aSmallTargetWithoutTheRequestFieldIsAccepted() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("data"));
        Files.write(dir.resolve("a.wav"), new byte[200_000]);
        Files.write(dir.resolve("b.wav"), new byte[200_000]);

        ShardResponse response = given().contentType(ContentType.JSON)
                .body(Map.of("dir", dir.toString(), "dataset", "speech", "revision", "small-by-config",
                        "source", "test", "targetShardBytes", 262_144, "stagingDir", tmp.resolve("staging").toString()))
                .when().post("/api/datasets/shard")
                .then().statusCode(200).extract().as(ShardResponse.class);

        assertThat(response.shards()).isEqualTo(2);
        assertThat(response.memberBytes()).isEqualTo(400_000);
    }
}
