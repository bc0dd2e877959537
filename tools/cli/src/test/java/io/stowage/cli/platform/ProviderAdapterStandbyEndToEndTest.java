package io.stowage.cli.platform;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliRun;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.output.Progress;
import io.stowage.events.EventCodec;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two provider-adapter instances as {@code stowage up --instances provider-adapter=2} starts them, against the real
 * stack: exactly one is active (answers HTTP, holds {@code state/provider-adapter/active.lock}), the other is a
 * standby that opened no journal and joined no consumer group; a paused ({@code SIGSTOP}) active instance keeps the
 * standby waiting past the broker's session timeout (never two acting at once); a killed one is replaced by the standby,
 * which finishes starting and serves the CLI and the console (which moves on from the standby's refused connection),
 * while supervision restarts the killed one as the new standby.
 */
class ProviderAdapterStandbyEndToEndTest {
    private static final List<String> INSTANCES = List.of("provider-adapter", "provider-adapter-2");
    /** The line an instance logs once it holds the lock ({@code ActiveInstance.ACTIVE_LINE} of the service). */
    private static final String ACTIVE_LINE = "provider-adapter active: holding the state directory";
    private static Path work;
    private static Platform platform;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("stowage-standby-e2e-");
        Path hot = Files.createDirectories(work.resolve("hot"));
        platform = Platform.start(work, List.of(work, hot), List.of(hot), new Progress(System.err, false),
                io.stowage.stack.StackCredentials.random(), null, Map.of("provider-adapter", 2));
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
    void oneInstanceActsTheOtherWaitsThroughAPauseAndTakesOverAfterAKill() throws Exception {
        String active = listening();
        String standby = INSTANCES.get(1 - INSTANCES.indexOf(active));
        assertThat(log(standby)).contains(ServiceLauncher.STANDBY_LINE)
                .as("a standby opens no journal and starts no Kafka channel")
                .doesNotContain("release journal").doesNotContain(ACTIVE_LINE).doesNotContain("SRMSG");
        assertThat(log(active)).contains(ACTIVE_LINE).contains("release journal");
        Path lock = work.resolve("state/provider-adapter/active.lock");
        assertThat(ServiceHealth.lockHolder(lock, Path.of("/proc/locks"))).contains(platform.pid(active));
        JsonNode status = status();
        assertThat(health(status, active)).isEqualTo("UP");
        assertThat(health(status, standby)).isEqualTo("STANDBY");
        assertThat(CliRun.run("volume", "list", "--json").exit()).as("the CLI reaches the active instance").isZero();
        assertConsoleReachesTheActiveInstance(active);

        // a paused active instance keeps its lock: the standby waits beyond the session timeout (10 s), never acts beside it
        long pausedLength = Files.size(logFile(standby));
        signal("STOP", platform.pid(active));
        try {
            Thread.sleep(15_000);
            assertThat(fresh(standby, pausedLength)).as("the standby while the active instance is paused")
                    .doesNotContain(ACTIVE_LINE);
            assertThat(port(standby)).as("the standby does not listen").isFalse();
        } finally {
            signal("CONT", platform.pid(active));
        }

        // killed: the standby takes over, finishes starting, and the CLI reaches it; the killed one comes back as standby
        long before = platform.pid(active);
        long standbyLength = Files.size(logFile(standby));
        signal("KILL", before);
        Awaitility.await("the standby becomes active").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250))
                .until(() -> fresh(standby, standbyLength).contains(ACTIVE_LINE) && ready(standby));
        assertThat(ServiceHealth.lockHolder(lock, Path.of("/proc/locks"))).contains(platform.pid(standby));
        Awaitility.await("the killed instance restarted as the standby").atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(500)).until(() -> platform.pid(active) != before
                        && health(status(), active).equals("STANDBY"));
        assertThat(health(status(), standby)).isEqualTo("UP");
        assertThat(CliRun.run("volume", "list", "--json").exit()).as("the CLI reaches the instance now active").isZero();
        assertConsoleReachesTheActiveInstance(standby);
    }

    /**
     * The console's volumes page (the provider-adapter's volumes, pods, runs and cost report) answers whichever instance
     * is active: before the kill and after it, one of the two is instance 2, which the console reaches only by moving
     * on from instance 1's refused connection.
     */
    private static void assertConsoleReachesTheActiveInstance(String active) throws Exception {
        String console = platform.session().services().get("console");
        HttpClient http = HttpClient.newBuilder().cookieHandler(new java.net.CookieManager()).build();
        HttpResponse<String> signin = http.send(HttpRequest.newBuilder(URI.create(console + "/signin")).build(),
                HttpResponse.BodyHandlers.ofString());
        java.util.regex.Matcher csrf = java.util.regex.Pattern.compile("name=\"csrf-token\" value=\"([^\"]+)\"")
                .matcher(signin.body());
        assertThat(csrf.find()).as("the sign-in form's CSRF field").isTrue();
        String reader = Files.readString(work.resolve("tokens").resolve(BearerToken.READER_FILE)).strip();
        HttpResponse<String> signedIn = http.send(HttpRequest.newBuilder(URI.create(console + "/signin"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("token=" + reader + "&next=/&csrf-token=" + csrf.group(1)))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(signedIn.statusCode()).as("sign-in").isEqualTo(303);
        HttpResponse<String> volumes = http.send(HttpRequest.newBuilder(URI.create(console + "/volumes"))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(volumes.statusCode()).as("the console's volumes page with " + active + " active: " + volumes.body())
                .isEqualTo(200);
        assertThat(volumes.body()).contains("Volumes, pods and runs");
    }

    /** @return the one instance that answers ready; fails when none or both do */
    private static String listening() {
        List<String> ready = new java.util.ArrayList<>();
        Awaitility.await("one provider-adapter ready").atMost(Duration.ofMinutes(1)).until(() -> {
            ready.clear();
            for (String name : INSTANCES) {
                if (ready(name)) {
                    ready.add(name);
                }
            }
            return !ready.isEmpty();
        });
        assertThat(ready).as("instances answering ready").hasSize(1);
        return ready.get(0);
    }

    private static boolean ready(String name) {
        try {
            HttpResponse<Void> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    platform.session().services().get(name) + "/q/health/ready")).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding());
            return r.statusCode() == 200;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean port(String name) {
        URI url = URI.create(platform.session().services().get(name));
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new java.net.InetSocketAddress(url.getHost(), url.getPort()), 500);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static JsonNode status() throws Exception {
        CliRun.Result r = CliRun.run("status", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        return EventCodec.mapper().readTree(r.out());
    }

    private static String health(JsonNode status, String name) {
        for (JsonNode s : status.path("services")) {
            if (s.path("name").asText().equals(name)) {
                return s.path("health").asText();
            }
        }
        throw new AssertionError("no service " + name + " in status");
    }

    private static Path logFile(String name) {
        return work.resolve("logs").resolve(name + ".log");
    }

    private static String log(String name) throws Exception {
        return Files.readString(logFile(name));
    }

    private static String fresh(String name, long from) throws Exception {
        byte[] all = Files.readAllBytes(logFile(name));
        return new String(all, (int) Math.min(from, all.length), (int) Math.max(0, all.length - from), StandardCharsets.UTF_8);
    }

    private static void signal(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).inheritIO().start();
        assertThat(kill.waitFor()).as("kill -" + signal + " " + pid).isZero();
    }
}
