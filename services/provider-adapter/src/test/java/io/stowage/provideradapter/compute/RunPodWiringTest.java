package io.stowage.provideradapter.compute;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.stowage.events.EventCodec;
import io.stowage.events.ProviderActionFailed;
import io.stowage.events.Topics;
import io.stowage.events.VolumeCreated;
import io.stowage.stack.KafkaProbe;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The running provider-adapter configured with {@code provider=runpod} against a local imitation of RunPod's REST
 * API: a created network volume is recorded and announced on Kafka; a 4xx refusal answers 422 and is reported as
 * {@code provider.action.failed} on Kafka, without the API key.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
@QuarkusTestResource(value = RunPodApiResource.class, restrictToAnnotatedClass = true)
class RunPodWiringTest {

    @Test
    void aNetworkVolumeIsCreatedThroughRunPodAndARefusalBecomesAFailureEvent() {
        KafkaProbe kafka = new KafkaProbe(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
        RunPodApiResource.server().stubFor(post("/v1/networkvolumes")
                .withHeader("Authorization", equalTo("Bearer " + RunPodApiResource.KEY))
                .withRequestBody(matchingJsonPath("$.name", equalTo("scratch-wired")))
                .willReturn(okJson("{\"id\":\"wired0001\",\"name\":\"scratch-wired\",\"size\":300,"
                        + "\"dataCenterId\":\"EU-RO-1\"}")));
        RunPodApiResource.server().stubFor(post("/v1/networkvolumes")
                .withRequestBody(matchingJsonPath("$.name", equalTo("too-big")))
                .willReturn(aResponse().withStatus(400).withHeader("Content-Type", "application/json")
                        .withBody("{\"error\":\"not enough capacity in EU-RO-1\"}")));

        JsonPath created = given().contentType(ContentType.JSON)
                .body(Map.of("name", "scratch-wired", "sizeGb", 300, "ttlSeconds", 259200))
                .post("/api/volumes").then().statusCode(201).extract().jsonPath();
        assertThat(created.getString("id")).isEqualTo("wired0001");
        assertThat(created.getString("provider")).isEqualTo("runpod");
        assertThat(created.getString("path")).endsWith("/mnt/wired0001");
        VolumeCreated event = EventCodec.decode(VolumeCreated.class,
                kafka.await(Topics.VOLUME_CREATED, "volume/wired0001").value());
        assertThat(event.provider()).isEqualTo("runpod");
        assertThat(event.sizeGb()).isEqualTo(300);

        String error = given().contentType(ContentType.JSON).body(Map.of("name", "too-big", "sizeGb", 4000))
                .post("/api/volumes").then().statusCode(422).extract().jsonPath().getString("error");
        assertThat(error).contains("HTTP 400", "not enough capacity").doesNotContain(RunPodApiResource.KEY);
        ProviderActionFailed failed = EventCodec.decode(ProviderActionFailed.class,
                kafka.await(Topics.PROVIDER_ACTION_FAILED, "volume/too-big").value());
        assertThat(failed.action()).isEqualTo("create-volume");
        assertThat(failed.httpStatus()).isEqualTo(400);
        assertThat(failed.permanent()).isTrue();
        assertThat(failed.provider()).isEqualTo("runpod");
        assertThat(failed.reason()).contains("not enough capacity").doesNotContain(RunPodApiResource.KEY);
    }
}
