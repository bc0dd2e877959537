package io.stowage.cli;

import io.stowage.cli.platform.ServiceTokens;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One packaged ledger ({@code quarkus-run.jar}) started as its own JVM for a test, on a free loopback port, its
 * output in {@code log}.
 *
 * @param process the ledger's JVM
 * @param url     {@code http://127.0.0.1:PORT}
 * @param log     standard output and error of the process
 */
record PackagedLedger(Process process, String url, Path log) {

    /**
     * @param jar         the ledger's {@code quarkus-run.jar}
     * @param environment the stack's environment ({@code StackEndpoints.environment()}), with any override
     * @param readerToken bearer token the ledger accepts with role {@code reader}
     * @param properties  extra {@code -Dkey=value} arguments
     * @return the started process (not yet ready: {@link #awaitReady()})
     */
    static PackagedLedger start(Path jar, Map<String, String> environment, Path log, String readerToken,
                                String... properties) throws IOException {
        int port = io.stowage.stack.LoopbackPorts.pick();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.addAll(List.of(properties));
        command.addAll(List.of("-jar", jar.toString()));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        builder.environment().put("QUARKUS_HTTP_PORT", String.valueOf(port));
        builder.environment().put("QUARKUS_HTTP_HOST", "127.0.0.1");
        builder.environment().put("STOWAGE_AUTH_TOKENS", ServiceTokens.line("reader", "ledger-test", readerToken));
        builder.redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        return new PackagedLedger(builder.start(), "http://127.0.0.1:" + port, log);
    }

    /** Waits (at most 3 min) until {@code /q/health/ready} answers 200; fails at once if the process died. */
    void awaitReady() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).until(() -> {
            assertThat(process.isAlive()).as("ledger alive, see %s", log).isTrue();
            try {
                return http.send(HttpRequest.newBuilder(URI.create(url + "/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException e) {
                return false;
            }
        });
    }
}
