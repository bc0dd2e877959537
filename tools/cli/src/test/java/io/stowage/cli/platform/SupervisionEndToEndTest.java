package io.stowage.cli.platform;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliRun.Result;
import io.stowage.cli.CliRun;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.output.Progress;
import io.stowage.events.EventCodec;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Supervision of the six packaged services as {@code stowage up} starts them: the uploader is killed with SIGKILL,
 * started again by supervision on the same port, healthy, and {@code stowage status --json} reports its one restart,
 * the time of it and the exit code 137; a line in the supervision log names the service, the code and the restart.
 */
class SupervisionEndToEndTest {
    private static Path work;
    private static Platform platform;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("stowage-supervision-e2e-");
        platform = Platform.start(work, List.of(work), List.of(), new Progress(System.err, false));
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
        System.setProperty("stowage.token", Files.readString(work.resolve("tokens").resolve(BearerToken.OPERATOR_FILE)).strip());
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
    void aServiceKilledWithSigkillIsRestartedHealthyAndStatusCountsTheRestart() throws Exception {
        long before = platform.pid("uploader");
        assertThat(status().path("services").get(2).path("restarts").asInt()).isZero();
        Process kill = new ProcessBuilder("kill", "-KILL", String.valueOf(before)).inheritIO().start();
        assertThat(kill.waitFor()).isZero();

        Awaitility.await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() -> {
            JsonNode uploader = service(status(), "uploader");
            return uploader.path("health").asText().equals("UP") && uploader.path("restarts").asInt() == 1;
        });
        JsonNode status = status();
        JsonNode uploader = service(status, "uploader");
        assertThat(uploader.path("pid").asLong()).isEqualTo(platform.pid("uploader")).isNotEqualTo(before);
        assertThat(uploader.path("state").asText()).isEqualTo("running");
        assertThat(uploader.path("lastExitCode").asInt()).isEqualTo(137);
        assertThat(uploader.path("lastRestart").asText()).isNotBlank();
        assertThat(uploader.path("url").asText()).isEqualTo(platform.session().services().get("uploader"));
        for (JsonNode other : status.path("services")) {
            assertThat(other.path("health").asText()).as(other.path("name").asText()).isEqualTo("UP");
            if (!other.path("name").asText().equals("uploader")) {
                assertThat(other.path("restarts").asInt()).as(other.path("name").asText()).isZero();
            }
        }
        assertThat(Files.readString(work.resolve("logs/supervision.log")))
                .contains("==> service uploader (pid " + before + ") exited with code 137; restarting it in 1 s (restart 1)")
                .contains("==> service uploader restarted (pid " + platform.pid("uploader") + ") and ready");

        String text = cli("status").out();
        assertThat(text).containsPattern("uploader +UP +pid " + platform.pid("uploader") + " +restarts 1, last \\S+ \\(exit 137\\)")
                .containsPattern("verifier +UP +pid \\d+ +restarts 0\\n");
    }

    @Test
    void aKilledS3ServerIsStartedAgainOnItsPortWithItsDataAndStatusListsTheServers() throws Exception {
        JsonNode servers = status().path("servers");
        assertThat(servers).extracting(s -> s.path("name").asText()).containsExactly("kafka", "s3proxy", "postgres");
        for (JsonNode server : servers) {
            assertThat(server.path("health").asText()).as(server.path("name").asText()).isEqualTo("UP");
            assertThat(server.path("state").asText()).as(server.path("name").asText()).isEqualTo("running");
        }
        long before = servers.get(1).path("pid").asLong();
        String endpoint = platform.session().stack().s3Endpoint();
        assertThat(servers.get(1).path("url").asText()).isEqualTo("tcp://" + java.net.URI.create(endpoint).getAuthority());
        Process kill = new ProcessBuilder("kill", "-KILL", String.valueOf(before)).inheritIO().start();
        assertThat(kill.waitFor()).isZero();

        Awaitility.await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).until(() -> {
            JsonNode s3 = status().path("servers").get(1);
            return s3.path("health").asText().equals("UP") && s3.path("restarts").asInt() == 1
                    && s3.path("state").asText().equals("running");
        });
        JsonNode s3 = status().path("servers").get(1);
        assertThat(s3.path("pid").asLong()).isNotEqualTo(before);
        assertThat(s3.path("lastExitCode").asInt()).isEqualTo(137);
        assertThat(platform.session().stack().s3Endpoint()).isEqualTo(endpoint);
        // the buckets are where they were (a fresh data directory would have none: NoSuchBucket), on the same port
        try (io.stowage.cli.store.PrimaryStore store = new io.stowage.cli.store.PrimaryStore(platform.session().stack())) {
            assertThat(store.head("no/such/key")).isEmpty();
            assertThat(store.list("")).doesNotContain("no/such/key");
        }
        assertThat(Files.readString(work.resolve("logs/supervision.log")))
                .contains("==> server s3proxy (pid " + before + ") exited with code 137; restarting it in 1 s (restart 1)")
                .contains("==> server s3proxy restarted (pid " + s3.path("pid").asLong() + ") and answering");
        assertThat(cli("status").out()).contains("servers:\n").containsPattern("s3proxy +UP +pid \\d+ +restarts 1, last \\S+ \\(exit 137\\)");
    }

    private static JsonNode service(JsonNode status, String name) {
        for (JsonNode s : status.path("services")) {
            if (s.path("name").asText().equals(name)) {
                return s;
            }
        }
        throw new AssertionError("no " + name + " in " + status);
    }

    private static JsonNode status() throws Exception {
        Result result = cli("status", "--json");
        assertThat(result.exit()).as(result.err()).isZero();
        return EventCodec.mapper().readTree(result.out());
    }


    private static Result cli(String... args) {
        return CliRun.run(args);
    }
}
