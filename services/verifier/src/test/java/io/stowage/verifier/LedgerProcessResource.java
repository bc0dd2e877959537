package io.stowage.verifier;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.stowage.stack.EmbeddedStack;
import org.awaitility.Awaitility;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Quarkus test resource: runs the real ledger service, packaged ({@code services/ledger/target/quarkus-app}), as a
 * child process against the JVM's shared stack (Kafka, PostgreSQL) on a free loopback port, and produces
 * {@code stowage.verifier.scrub.ledger-url} for the verifier under test. Build it first:
 * {@code ./mvnw -B -q -pl services/ledger -am package -DskipTests}.
 */
public final class LedgerProcessResource implements QuarkusTestResourceLifecycleManager {
    private static final Path JAR = Path.of("../ledger/target/quarkus-app/quarkus-run.jar");
    private Process ledger;

    @Override
    public Map<String, String> start() {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException("the ledger is not packaged: no " + JAR.toAbsolutePath()
                    + "; run ./mvnw -B -q -pl services/ledger -am package -DskipTests first");
        }
        try {
            int port = freePort();
            Map<String, String> env = new LinkedHashMap<>(EmbeddedStack.shared().environment());
            env.put("QUARKUS_HTTP_PORT", String.valueOf(port));
            env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
            env.put("STOWAGE_AUTH_TOKENS", io.stowage.auth.TestTokens.CONFIG);
            Path log = Files.createDirectories(Path.of("target")).resolve("ledger-for-scrub-test.log");
            ProcessBuilder builder = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                    "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", JAR.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().putAll(env);
            ledger = builder.start();
            String url = "http://127.0.0.1:" + port;
            HttpClient http = HttpClient.newHttpClient();
            Awaitility.await("ledger ready at " + url + " (log " + log.toAbsolutePath() + ")")
                    .atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500)).until(() -> {
                        if (!ledger.isAlive()) {
                            throw new IllegalStateException("ledger exited with " + ledger.exitValue() + ", see " + log);
                        }
                        return ready(http, URI.create(url + "/q/health/ready"));
                    });
            return Map.of("stowage.verifier.scrub.ledger-url", url);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean ready(HttpClient http, URI uri) {
        try {
            return http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static int freePort() throws IOException {
        return io.stowage.stack.LoopbackPorts.pick();
    }

    @Override
    public void stop() {
        if (ledger != null) {
            ledger.destroy();
            try {
                if (!ledger.waitFor(Duration.ofSeconds(20).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    ledger.destroyForcibly();
                }
            } catch (InterruptedException e) {
                ledger.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
