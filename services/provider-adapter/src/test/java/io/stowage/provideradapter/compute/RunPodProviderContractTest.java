package io.stowage.provideradapter.compute;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.stowage.provideradapter.domain.resource.PodSpec;
import io.stowage.provideradapter.domain.resource.ProviderException;
import io.stowage.provideradapter.domain.resource.ProvisionedPod;
import io.stowage.provideradapter.domain.resource.ProvisionedVolume;
import io.stowage.provideradapter.domain.resource.RetryPolicy;
import io.stowage.provideradapter.domain.resource.VolumeSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The RunPod provider against a local HTTP server (WireMock) answering as RunPod's REST API v1 documentation
 * describes (docs.runpod.io/api-reference: /networkvolumes, /pods; Bearer key; {@code costPerHr} as a string):
 * shapes, 404 = already gone, 4xx refused once, 5xx retried, 429 waits for Retry-After, the key never shown.
 */
class RunPodProviderContractTest {
    private static final String KEY = "rpa_TESTKEY0123456789SECRET";
    private static final String VOLUME = """
            {"id":"agv6w2qcg7","name":"scratch-run7","size":500,"dataCenterId":"EU-RO-1"}""";
    private static final String POD = """
            {"id":"xedezhzb9la3ye","name":"train-run7","costPerHr":"0.74","adjustedCostPerHr":0.69,
             "desiredStatus":"RUNNING","gpuCount":1,"imageName":"runpod/pytorch:2.1.0","networkVolumeId":"agv6w2qcg7",
             "gpu":{"id":"NVIDIA GeForce RTX 4090","count":1,"displayName":"RTX 4090"}}""";

    private WireMockServer server;
    private final List<Duration> waits = new ArrayList<>();
    private RunPodProvider provider;

    @TempDir
    Path dir;

    @BeforeEach
    void start() throws IOException {
        server = new WireMockServer(WireMockConfiguration.options().dynamicPort());
        server.start();
        Path keyFile = Files.writeString(dir.resolve("runpod-api-key"), KEY + "\n");
        RetryPolicy retry = new RetryPolicy(3, Duration.ofMillis(200), Duration.ofSeconds(2), Duration.ofSeconds(30));
        RunPodHttp http = new RunPodHttp(URI.create(server.baseUrl() + "/v1"), RunPodApiKey.read(keyFile), retry,
                waits::add, Clock.systemUTC());
        provider = new RunPodProvider(http, "EU-RO-1", Path.of("/runpod-volume"));
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    @Test
    void createsANetworkVolumeWithTheDocumentedBodyAndBearerKey() {
        server.stubFor(post("/v1/networkvolumes").willReturn(okJson(VOLUME)));

        ProvisionedVolume volume = provider.createVolume(spec("scratch-run7", 500));

        assertThat(volume).isEqualTo(new ProvisionedVolume("agv6w2qcg7", "scratch-run7", 500,
                "/runpod-volume/agv6w2qcg7"));
        server.verify(1, postRequestedFor(urlEqualTo("/v1/networkvolumes"))
                .withHeader("Authorization", equalTo("Bearer " + KEY))
                .withRequestBody(equalToJson("{\"name\":\"scratch-run7\",\"size\":500,\"dataCenterId\":\"EU-RO-1\"}")));
    }

    @Test
    void listsAndReadsVolumesAndAnUnknownOneIsEmpty() {
        server.stubFor(get("/v1/networkvolumes").willReturn(okJson("[" + VOLUME + "]")));
        server.stubFor(get("/v1/networkvolumes/agv6w2qcg7").willReturn(okJson(VOLUME)));
        server.stubFor(get("/v1/networkvolumes/gone123").willReturn(aResponse().withStatus(404)
                .withBody("{\"error\":\"network volume not found\"}")));

        assertThat(provider.volumes()).extracting(ProvisionedVolume::id, ProvisionedVolume::sizeGb)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("agv6w2qcg7", 500));
        assertThat(provider.volume("agv6w2qcg7")).map(ProvisionedVolume::name).contains("scratch-run7");
        assertThat(provider.volume("gone123")).isEmpty();
    }

    @Test
    void destroyingIsIdempotent404MeansAlreadyGone() {
        server.stubFor(delete("/v1/networkvolumes/agv6w2qcg7").inScenario("delete")
                .whenScenarioStateIs(Scenario.STARTED).willReturn(aResponse().withStatus(204))
                .willSetStateTo("deleted"));
        server.stubFor(delete("/v1/networkvolumes/agv6w2qcg7").inScenario("delete")
                .whenScenarioStateIs("deleted").willReturn(aResponse().withStatus(404)
                        .withBody("{\"error\":\"network volume not found\"}")));

        assertThat(provider.destroyVolume("agv6w2qcg7")).isTrue();
        assertThat(provider.destroyVolume("agv6w2qcg7")).isFalse();
        server.verify(2, deleteRequestedFor(urlEqualTo("/v1/networkvolumes/agv6w2qcg7")));
        assertThat(waits).isEmpty();
    }

    @Test
    void aClientErrorIsRefusedOnceWithRunPodsMessageAndNeverTheKey() {
        server.stubFor(post("/v1/networkvolumes").willReturn(aResponse().withStatus(400)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"error\":\"size must be between 1 and 4000\"}")));

        assertThatThrownBy(() -> provider.createVolume(spec("too-big", 4000)))
                .isInstanceOfSatisfying(ProviderException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(400);
                    assertThat(e.permanent()).isTrue();
                    assertThat(e.getMessage()).contains("HTTP 400", "size must be between 1 and 4000")
                            .doesNotContain(KEY);
                });
        server.verify(1, postRequestedFor(urlEqualTo("/v1/networkvolumes")));
        assertThat(waits).isEmpty();
    }

    @Test
    void anUnauthorisedKeyIsAPermanentFailure() {
        server.stubFor(get("/v1/pods").willReturn(aResponse().withStatus(401).withBody("{\"error\":\"unauthorized\"}")));

        assertThatThrownBy(() -> provider.pods()).isInstanceOfSatisfying(ProviderException.class, e -> {
            assertThat(e.httpStatus()).isEqualTo(401);
            assertThat(e.permanent()).isTrue();
            assertThat(e.getMessage()).doesNotContain(KEY);
        });
    }

    @Test
    void aServerErrorIsRetriedWithBackoff() {
        server.stubFor(delete("/v1/pods/xedezhzb9la3ye").inScenario("flaky")
                .whenScenarioStateIs(Scenario.STARTED).willReturn(aResponse().withStatus(502)).willSetStateTo("once"));
        server.stubFor(delete("/v1/pods/xedezhzb9la3ye").inScenario("flaky")
                .whenScenarioStateIs("once").willReturn(aResponse().withStatus(503)).willSetStateTo("twice"));
        server.stubFor(delete("/v1/pods/xedezhzb9la3ye").inScenario("flaky")
                .whenScenarioStateIs("twice").willReturn(aResponse().withStatus(204)));

        assertThat(provider.terminatePod("xedezhzb9la3ye")).isTrue();
        server.verify(3, deleteRequestedFor(urlEqualTo("/v1/pods/xedezhzb9la3ye")));
        assertThat(waits).containsExactly(Duration.ofMillis(200), Duration.ofMillis(400));
    }

    @Test
    void serverErrorsUntilTheAttemptsRunOutAreATransientFailure() {
        server.stubFor(get("/v1/networkvolumes/agv6w2qcg7").willReturn(aResponse().withStatus(500)
                .withBody("{\"error\":\"internal error\"}")));

        assertThatThrownBy(() -> provider.volume("agv6w2qcg7")).isInstanceOfSatisfying(ProviderException.class, e -> {
            assertThat(e.httpStatus()).isEqualTo(500);
            assertThat(e.permanent()).isFalse();
            assertThat(e.getMessage()).contains("after 3 attempt(s)", "internal error");
        });
        server.verify(3, getRequestedFor(urlEqualTo("/v1/networkvolumes/agv6w2qcg7")));
    }

    @Test
    void aRateLimitWaitsForRetryAfterThenSucceeds() {
        server.stubFor(get("/v1/pods/xedezhzb9la3ye").inScenario("limited")
                .whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withStatus(429).withHeader("Retry-After", "7")
                        .withBody("{\"error\":\"rate limit exceeded\"}"))
                .willSetStateTo("open"));
        server.stubFor(get("/v1/pods/xedezhzb9la3ye").inScenario("limited")
                .whenScenarioStateIs("open").willReturn(okJson(POD)));

        ProvisionedPod pod = provider.pod("xedezhzb9la3ye").orElseThrow();

        assertThat(pod.costPerHourUsd()).isEqualByComparingTo("0.74");
        assertThat(pod.status()).isEqualTo("RUNNING");
        assertThat(waits).containsExactly(Duration.ofSeconds(7));
    }

    @Test
    void aCreateThatFailedWithAServerErrorIsFoundByNameInsteadOfSentTwice() {
        server.stubFor(post("/v1/networkvolumes").willReturn(aResponse().withStatus(502)));
        server.stubFor(get("/v1/networkvolumes").willReturn(okJson("[" + VOLUME + "]")));

        ProvisionedVolume volume = provider.createVolume(spec("scratch-run7", 500));

        assertThat(volume.id()).isEqualTo("agv6w2qcg7");
        server.verify(1, postRequestedFor(urlEqualTo("/v1/networkvolumes")));
        server.verify(1, getRequestedFor(urlEqualTo("/v1/networkvolumes")));
    }

    @Test
    void createsAPodOnTheVolumeAndReadsItsHourlyPrice() {
        server.stubFor(post("/v1/pods").willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody(POD)));

        ProvisionedPod pod = provider.createPod(new PodSpec("train-run7", "runpod/pytorch:2.1.0",
                "NVIDIA GeForce RTX 4090", 1, BigDecimal.ZERO, "agv6w2qcg7", Duration.ofHours(72), null, "run7"));

        assertThat(pod).isEqualTo(new ProvisionedPod("xedezhzb9la3ye", "train-run7", new BigDecimal("0.74"),
                "RUNNING"));
        server.verify(postRequestedFor(urlEqualTo("/v1/pods")).withRequestBody(equalToJson("""
                {"name":"train-run7","imageName":"runpod/pytorch:2.1.0","computeType":"GPU",
                 "gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"networkVolumeId":"agv6w2qcg7",
                 "volumeMountPath":"/workspace"}""")));
    }

    @Test
    void anIdThatIsNotARunPodIdNeverReachesTheUrl() {
        assertThatThrownBy(() -> provider.destroyVolume("../pods/x")).isInstanceOf(ProviderException.class)
                .hasMessageContaining("not a RunPod id");
        assertThat(server.getAllServeEvents()).isEmpty();
    }

    @Test
    void theKeyObjectNeverPrintsTheKey() throws IOException {
        RunPodApiKey key = RunPodApiKey.read(dir.resolve("runpod-api-key"));
        assertThat(key.toString()).doesNotContain(KEY);
        assertThat(key.value()).isEqualTo(KEY);
        Path empty = Files.writeString(dir.resolve("empty"), "  \n");
        assertThatThrownBy(() -> RunPodApiKey.read(empty)).hasMessageContaining("is empty");
    }

    private static VolumeSpec spec(String name, int sizeGb) {
        return new VolumeSpec(name, "scratch", sizeGb, Duration.ofHours(72), null, "run7");
    }
}
