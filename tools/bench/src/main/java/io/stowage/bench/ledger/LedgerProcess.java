package io.stowage.bench.ledger;

import io.stowage.stack.StackEndpoints;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * The packaged ledger ({@code services/ledger/target/quarkus-app}, copied first so a rebuild cannot disturb it)
 * as a child process wired to a running stack, on a free loopback port; {@link #close()} stops it.
 */
final class LedgerProcess implements AutoCloseable {
    private final Process process;
    private final String url;
    private final String token;

    private LedgerProcess(Process process, String url, String token) {
        this.process = process;
        this.url = url;
        this.token = token;
    }

    /**
     * @param heap {@code -Xmx} value, e.g. {@code 1g}
     * @throws IOException when the app is not packaged or cannot start; IllegalStateException when not ready in 5 min
     */
    static LedgerProcess start(Path repo, Path work, StackEndpoints stack, String heap) throws IOException, InterruptedException {
        Path app = repo.resolve("services/ledger/target/quarkus-app");
        if (!Files.isRegularFile(app.resolve("quarkus-run.jar"))) {
            throw new IOException("package the ledger first: ./mvnw -B -q -pl services/ledger -am package -DskipTests");
        }
        Path copy = work.resolve("ledger-app");
        try (var paths = Files.walk(app)) {
            for (Path p : paths.toList()) {
                Files.copy(p, copy.resolve(app.relativize(p).toString()));
            }
        }
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap, "-jar", copy.resolve("quarkus-run.jar").toString());
        builder.environment().putAll(stack.environment());
        builder.environment().put("QUARKUS_HTTP_PORT", String.valueOf(port));
        builder.environment().put("QUARKUS_HTTP_HOST", "127.0.0.1");
        // the ledger's API needs a bearer token: a fresh operator token whose SHA-256 the ledger is given
        String token = newToken();
        builder.environment().put("STOWAGE_AUTH_TOKENS", "operator:bench:" + sha256Hex(token));
        builder.redirectErrorStream(true).redirectOutput(work.resolve("ledger.log").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        LedgerProcess ledger = new LedgerProcess(builder.start(), "http://127.0.0.1:" + port, token);
        ledger.awaitReady();
        return ledger;
    }

    /** @return the value of the {@code Authorization} header the ledger accepts: {@code Bearer <operator token>} */
    String authorization() {
        return "Bearer " + token;
    }

    private static String newToken() {
        byte[] bytes = new byte[32];
        new java.security.SecureRandom().nextBytes(bytes);
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String sha256Hex(String token) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the process id of the ledger JVM */
    long pid() {
        return process.pid();
    }

    /** @return the base URL, e.g. {@code http://127.0.0.1:41234} */
    String url() {
        return url;
    }

    private void awaitReady() throws InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the ledger exited during start-up, see ledger.log");
            }
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(url + "/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("the ledger was not ready within 5 minutes");
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
