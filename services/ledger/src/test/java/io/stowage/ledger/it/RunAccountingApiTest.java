package io.stowage.ledger.it;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.stowage.events.EventMeta;
import io.stowage.events.PodCreated;
import io.stowage.events.RunFinished;
import io.stowage.events.RunProgress;
import io.stowage.events.RunStarted;
import io.stowage.events.RunTimes;
import io.stowage.events.StowageEvent;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The run accounting against the real broker and PostgreSQL: two attempts of a run (the first killed without a finish
 * line, the second completed), a progress redelivered late, and the run's pod price from pod.created, served by
 * {@code GET /api/runs}.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class RunAccountingApiTest {
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private final String run = "acc-" + UUID.randomUUID().toString().substring(0, 8);
    private final Instant t0 = Instant.now().minusSeconds(3600);

    @Test
    void attemptsAreAccountedWithThePreemptionPricedAtTheRunsPods() throws Exception {
        String resources = "res-" + run;
        RunProgress late = RunProgress.of(meta(600), "exp", run, "a1", 300, new RunTimes(600, 500, 40, 10));
        send(List.of(
                PodCreated.of(meta(0), "pod-" + run, "local", "trainer", null, 0, new BigDecimal("0.72"), null, 0, null,
                        null, resources),
                RunStarted.of(meta(0), "exp", run, "a1", null, resources),
                RunProgress.of(meta(1000), "exp", run, "a1", 500, new RunTimes(1000, 850, 60, 20)),
                late,
                RunStarted.of(meta(1200), "exp", run, "a2", 500L, resources),
                RunFinished.of(meta(1500), "exp", run, "a2", 800, new RunTimes(300, 270, 10, 5), "completed", null)));

        JsonPath report = given().queryParam("experiment", "exp").queryParam("run", run).get("/api/runs")
                .then().statusCode(200).extract().jsonPath();

        assertThat(report.getString("verdict")).isEqualTo("finished");
        assertThat(report.getInt("attemptCount")).isEqualTo(2);
        assertThat(report.getDouble("wallSeconds")).as("the late progress changed nothing").isEqualTo(1300.0);
        assertThat(report.getDouble("trainingSeconds")).isEqualTo(1120.0);
        assertThat(report.getDouble("dataWaitSeconds")).isEqualTo(70.0);
        assertThat(report.getString("interruptions[0].attemptId")).isEqualTo("a1");
        assertThat(report.getString("interruptions[0].kind")).isEqualTo("preempted");
        assertThat(report.getDouble("interruptions[0].lostSeconds")).as("no checkpoint in the attempt").isEqualTo(1000.0);
        assertThat(new BigDecimal(report.getString("lostUsd"))).isEqualByComparingTo("0.2"); // 1000 s at 0.72 USD/h
        assertThat(report.getLong("attempts[1].resumedFromStep")).isEqualTo(500);

        List<String> runs = given().get("/api/runs").then().statusCode(200).extract().jsonPath().getList("run");
        assertThat(runs).contains(run);
        given().queryParam("experiment", "exp").queryParam("run", "bad run").get("/api/runs").then().statusCode(400);
        assertThat(given().queryParam("experiment", "exp").queryParam("run", run + "-none").get("/api/runs").then()
                .statusCode(200).extract().jsonPath().getString("verdict")).isEqualTo("not started");
    }

    private void send(List<StowageEvent> events) throws Exception {
        try (TestProducer producer = new TestProducer(bootstrapServers)) {
            for (StowageEvent event : events) {
                producer.send(event);
            }
        }
        for (StowageEvent event : events) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> given().get("/api/events/" + event.meta().eventId()).statusCode() == 200);
        }
    }

    private EventMeta meta(long second) {
        return new EventMeta(UUID.randomUUID().toString(), EventMeta.CURRENT_VERSION, t0.plusSeconds(second), "run/exp/" + run, null);
    }
}
