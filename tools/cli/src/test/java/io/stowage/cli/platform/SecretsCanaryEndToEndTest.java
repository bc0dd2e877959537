package io.stowage.cli.platform;

import com.github.luben.zstd.ZstdInputStream;
import io.stowage.cli.CliException;
import io.stowage.cli.Repo;
import io.stowage.cli.checkpoint.CheckpointPublisher;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.client.EventPublisher;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.demo.DemoReport;
import io.stowage.cli.demo.DemoRunner;
import io.stowage.cli.output.Progress;
import io.stowage.events.EventCodec;
import io.stowage.events.Topics;
import io.stowage.stack.StackCredentials;
import io.stowage.stack.StackEndpoints;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The secrets canary: the whole stack and the six packaged services start with recognisable fake
 * secrets (S3 access key and secret key, which are S3Proxy's single identity; the database password; the gate
 * signing key), the demo runs (uploads, verification, five releases and one refused release), an uploader is
 * started with a wrong secret key read from a secrets-mount file (a bad-credential start), the services' HTTP
 * endpoints are asked (health, info, OpenAPI, errors); then every record of every topic, every row of every ledger
 * table, every object (decompressed when zstd) and its HEAD metadata in both buckets, every endpoint answer, every
 * log file under the work directory and the CLI's output are searched for the canary. Zero occurrences, and every
 * count of things searched is non-zero. A positive control proves the search finds the canary where it must be:
 * S3Proxy's own configuration file (mode 0600), which is how S3Proxy learns its identity.
 */
class SecretsCanaryEndToEndTest {
    private final String canary = "CANARY-" + UUID.randomUUID().toString().substring(0, 8);
    /** The session's SCRAM passwords (random, not canaries): no log may hold one either. */
    private final List<String> kafkaPasswords = new ArrayList<>();
    private final Map<String, Long> searched = new LinkedHashMap<>();
    private final List<String> found = new ArrayList<>();

    @Test
    void noSecretReachesALogATopicARowAnObjectOrAnEndpoint() throws Exception {
        Path work = Files.createTempDirectory("stowage-canary-");
        StackCredentials credentials = new StackCredentials(canary + "-S3-ACCESS-KEY", canary + "-S3-SECRET-KEY-0123456789",
                canary + "-DATABASE-PASSWORD");
        String signingKey = canary + "-GATE-SIGNING-KEY-0123456789abcdef";
        ByteArrayOutputStream cliOutput = new ByteArrayOutputStream();
        PrintStream progressOut = new PrintStream(cliOutput, true, StandardCharsets.UTF_8);
        DemoRunner.HotVolume hot = DemoRunner.HotVolume.prepare(Repo.root(), work);
        try (Platform platform = Platform.start(work, hot.protectedRoots(work), hot.volumeRoots(),
                new Progress(progressOut, false), credentials, signingKey)) {
            StackEndpoints stack = platform.session().stack();
            for (String principal : List.of("shard-builder", "uploader", "verifier", "ledger", "gatekeeper",
                    "provider-adapter", "operator")) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("password=\"([^\"]+)\"")
                        .matcher(platform.kafkaEnvironment(principal).get("KAFKA_SASL_JAAS_CONFIG"));
                assertThat(m.find()).isTrue();
                kafkaPasswords.add(m.group(1));
            }
            // the CLI's HTTP calls carry this session's operator token, as in DemoEndToEndTest
            System.setProperty("stowage.token",
                    Files.readString(work.resolve("tokens").resolve(BearerToken.OPERATOR_FILE)).strip());
            assertThat(stack.s3AccessKey()).as("the services' S3 identity is the canary itself").startsWith(canary);
            DemoReport report = new DemoRunner(platform.session(), new Progress(progressOut, false)).run(hot);
            assertThat(report.denied()).as("the demo includes a refused release").hasSize(1);
            cliOutput.write(EventCodec.mapper().writeValueAsBytes(report));

            failedUpload(platform.session(), work);
            badCredentialStart(stack, platform.kafkaEnvironment("uploader"), work);
            refusedRunPodKey(stack, platform.kafkaEnvironment("provider-adapter"), work);
            searchEndpoints(platform.session());
            searchTopics(platform.kafkaSuperUser());
            searchLedgerRows(stack);
            searchStore(stack, stack.primaryBucket());
            searchStore(stack, stack.replicaBucket());
        } finally {
            System.clearProperty("stowage.token");
        }
        searchText("cli output lines", new String(cliOutput.toByteArray(), StandardCharsets.UTF_8), "cli output");
        searchLogs(work);
        assertThat(kafkaPasswords).hasSize(7).doesNotHaveDuplicates();
        try (Stream<Path> files = Files.walk(work)) {
            for (Path file : files.filter(Files::isRegularFile).filter(f -> f.getFileName().toString().endsWith(".log")).toList()) {
                String text = latin1(Files.readAllBytes(file));
                assertThat(kafkaPasswords).as("Kafka passwords in " + work.relativize(file)).noneMatch(text::contains);
            }
        }

        long control = occurrences(Files.readString(work.resolve("stack/s3/s3proxy.properties")));
        System.out.println("secrets canary " + canary + ": searched " + searched + "; found " + found.size()
                + " occurrence(s); positive control (S3Proxy's 0600 configuration) holds it " + control + " time(s)");
        assertThat(control).as("the search finds the canary where it must be").isGreaterThanOrEqualTo(2);
        assertThat(searched).allSatisfy((what, count) -> assertThat(count).as(what).isPositive());
        assertThat(searched.get("service log files")).as("six services and the bad start").isGreaterThanOrEqualTo(7L);
        assertThat(searched.get("topics")).as("every topic and its .dlq").isGreaterThanOrEqualTo(2L * Topics.ALL.size());
        assertThat(found).as("places holding the canary").isEmpty();
        deleteRecursively(work); // kept when an assertion fails, for inspection
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** A checkpoint file changed between publish and upload: a permanent upload failure and a dead letter. */
    private void failedUpload(Session session, Path work) throws Exception {
        Path step = Files.createDirectories(work.resolve("hot/checkpoints/speech-digits/run-2/step-000000000001"));
        Files.writeString(step.resolve("model.pt"), "weights at publish time");
        Files.writeString(step.resolve("provenance.json"), Files.readString(
                Repo.root().resolve("examples/pytorch/checkpoints/speech-digits/run-1/step-000000000050/provenance.json")));
        CheckpointPublisher.Prepared prepared = new CheckpointPublisher(Path.of(session.stagingDir()), Clock.systemUTC())
                .prepare(step, "speech-digits", "run-2", 1, false, List.of());
        Files.writeString(step.resolve("model.pt"), "weights overwritten by a later step");
        try (EventPublisher publisher = new EventPublisher(session.kafkaClient())) {
            publisher.publish(prepared.event());
        }
        LedgerClient ledger = new LedgerClient(session.serviceUrl("ledger"));
        assertThatThrownBy(() -> ledger.awaitVerified(prepared.event().assetId(), 2, Duration.ofSeconds(60)))
                .isInstanceOf(CliException.class).hasMessageContaining("model.pt");
    }

    /** An uploader whose secret key comes from a secrets-mount file and is wrong: it must stop with one line naming no secret. */
    private void badCredentialStart(StackEndpoints stack, Map<String, String> kafkaLogin, Path work) throws Exception {
        Path secrets = Files.createDirectories(work.resolve("bad-secrets"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.writeString(secrets.resolve("STOWAGE_STORE_PRIMARY_SECRET_ACCESS_KEY"), canary + "-WRONG-SECRET\n");
        Map<String, String> env = new LinkedHashMap<>(stack.environment());
        env.remove("STOWAGE_STORE_PRIMARY_SECRET_ACCESS_KEY");
        env.putAll(kafkaLogin);
        env.put("SMALLRYE_CONFIG_SOURCE_FILE_LOCATIONS", secrets.toString());
        env.put("QUARKUS_HTTP_PORT", String.valueOf(freePort()));
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("STOWAGE_UPLOADER_STATE_DIR", work.resolve("bad-state").toString());
        Path log = work.resolve("logs/uploader-bad-credentials.log");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar",
                Repo.root().resolve("services/uploader/target/quarkus-app/quarkus-run.jar").toString());
        builder.environment().putAll(env);
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        Process process = builder.start();
        try {
            assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("the uploader stops by itself").isTrue();
            assertThat(process.exitValue()).isNotZero();
            assertThat(Files.readString(log)).contains("store primary (" + stack.s3Endpoint() + ", bucket "
                    + stack.primaryBucket() + "): credentials refused (HTTP 403)");
        } finally {
            process.destroyForcibly();
        }
    }

    /**
     * A provider-adapter on the RunPod provider whose API key (canary) comes from a secrets-mount file; RunPod (a JDK
     * HTTP server standing in for it) refuses the key with 401. The key must be sent (proving it was read) and must
     * reach no answer, event or log.
     */
    private void refusedRunPodKey(StackEndpoints stack, Map<String, String> kafkaLogin, Path work) throws Exception {
        Path secrets = Files.createDirectories(work.resolve("runpod-secrets"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        String runPodKey = canary + "-RUNPOD-API-KEY";
        Files.writeString(secrets.resolve("runpod-api-key"), runPodKey + "\n");
        List<String> authorizations = new java.util.concurrent.CopyOnWriteArrayList<>();
        com.sun.net.httpserver.HttpServer runPod = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        runPod.createContext("/", exchange -> {
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            exchange.getRequestBody().readAllBytes();
            byte[] body = "{\"error\":\"invalid api key\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        runPod.start();
        int port = freePort();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", stack.kafkaBootstrapServers());
        env.putAll(kafkaLogin);
        env.put("QUARKUS_HTTP_PORT", String.valueOf(port));
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        // retention's store keys (the provider-adapter needs them to start; they must reach no log either)
        stack.environment().forEach((k, v) -> {
            if (k.startsWith("STOWAGE_STORE_")) {
                env.put(k, v);
            }
        });
        env.put("STOWAGE_PROVIDER_ADAPTER_PROVIDER", "runpod");
        env.put("STOWAGE_PROVIDER_ADAPTER_RUNPOD_BASE_URL", "http://127.0.0.1:" + runPod.getAddress().getPort() + "/v1");
        env.put("STOWAGE_PROVIDER_ADAPTER_RUNPOD_API_KEY_FILE", secrets.resolve("runpod-api-key").toString());
        env.put("STOWAGE_PROVIDER_ADAPTER_RUNPOD_MAX_ATTEMPTS", "1");
        env.put("STOWAGE_PROVIDER_ADAPTER_STATE_DIR", work.resolve("runpod-state").toString());
        env.put("STOWAGE_PROVIDER_ADAPTER_VOLUMES_ROOT", work.resolve("runpod-volumes").toString());
        env.put("STOWAGE_PROVIDER_ADAPTER_SWEEP_INTERVAL", "0s");
        // bearer tokens: this provider-adapter knows one operator token, by its SHA-256 only
        String operatorToken = "canary-runpod-operator-" + java.util.UUID.randomUUID();
        env.put("STOWAGE_AUTH_TOKENS", "operator:canary-operator:" + java.util.HexFormat.of().formatHex(
                java.security.MessageDigest.getInstance("SHA-256").digest(operatorToken.getBytes(StandardCharsets.UTF_8))));
        // the provider-adapter's own group (the only one its Kafka user may join), whose offsets are past the demo's
        // decisions: it must not act on them
        for (String channel : List.of("GATE_PASSED", "GATE_DENIED", "VOLUME_RELEASED_OUTCOME", "VOLUME_RELEASE_FAILED_OUTCOME")) {
            env.put("MP_MESSAGING_INCOMING_" + channel + "_AUTO_OFFSET_RESET", "latest");
        }
        Path log = work.resolve("logs/provider-adapter-runpod.log");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar",
                Repo.root().resolve("services/provider-adapter/target/quarkus-app/quarkus-run.jar").toString());
        builder.environment().putAll(env);
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        Process process = builder.start();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        try {
            Awaitility.await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                    .until(() -> http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/live")).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/volumes"))
                    .header("Content-Type", "application/json").header("Authorization", "Bearer " + operatorToken)
                    .timeout(Duration.ofSeconds(60))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"canary-volume\",\"purpose\":\"scratch\","
                            + "\"sizeGb\":10,\"ttlSeconds\":0}")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(answer.body()).isGreaterThanOrEqualTo(400);
            assertThat(authorizations).as("the key read from the secrets mount was sent to RunPod").contains("Bearer " + runPodKey);
            searchText("endpoint answers", answer.statusCode() + " " + answer.headers().map() + "\n" + answer.body(), "runpod volume create");
        } finally {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            runPod.stop(0);
        }
    }

    private void searchEndpoints(Session session) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        List<String> paths = List.of("/q/health", "/q/health/ready", "/q/health/live", "/q/health/started", "/q/info",
                "/q/openapi", "/q/metrics", "/q/dev-ui", "/q/config", "/api/does-not-exist", "/api/evidence",
                "/api/assets?id=%00", "/api/objects", "/api/status", "/api/lag");
        for (Map.Entry<String, String> service : session.services().entrySet()) {
            for (String path : paths) {
                HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(service.getValue() + path))
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
                searchText("endpoint answers", answer.statusCode() + " " + answer.headers().map() + "\n" + answer.body(),
                        service.getKey() + path);
            }
        }
    }

    private void searchTopics(Map<String, String> superUser) {
        Properties props = new Properties();
        props.putAll(superUser);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "canary-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.listTopics().forEach((topic, infos) -> {
                if (!topic.startsWith("__")) {
                    searched.merge("topics", 1L, Long::sum);
                    infos.forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
                }
            });
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    StringBuilder text = new StringBuilder().append(latin1(r.key())).append('\n').append(latin1(r.value()));
                    for (Header h : r.headers()) {
                        text.append('\n').append(h.key()).append('=').append(latin1(h.value()));
                    }
                    searchText("topic records", text.toString(), r.topic() + "@" + r.partition() + ":" + r.offset());
                }
                return partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p));
            });
        }
    }

    private void searchLedgerRows(StackEndpoints stack) throws Exception {
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             Statement sql = db.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = sql.executeQuery("select table_schema || '.' || table_name from information_schema.tables "
                    + "where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String table : tables) {
                searched.merge("ledger tables", 1L, Long::sum);
                try (ResultSet rs = sql.executeQuery("select t::text from " + table + " t")) {
                    while (rs.next()) {
                        searchText("ledger rows", rs.getString(1), table);
                    }
                }
            }
        }
    }

    private void searchStore(StackEndpoints stack, String bucket) throws IOException {
        try (S3Client s3 = S3Client.builder().endpointOverride(URI.create(stack.s3Endpoint())).region(Region.of(stack.s3Region()))
                .forcePathStyle(true).httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(stack.s3AccessKey(), stack.s3SecretKey())))
                .build()) {
            for (S3Object object : s3.listObjectsV2Paginator(b -> b.bucket(bucket)).contents()) {
                HeadObjectResponse head = s3.headObject(b -> b.bucket(bucket).key(object.key()));
                searched.merge("object metadata entries", (long) head.metadata().size(), Long::sum);
                searchText("object heads", object.key() + "\n" + head.metadata() + "\n" + head.contentType(), bucket + "/" + object.key());
                byte[] bytes = s3.getObjectAsBytes(b -> b.bucket(bucket).key(object.key())).asByteArray();
                if (object.key().endsWith(".zst")) {
                    try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(bytes))) {
                        bytes = in.readAllBytes();
                    }
                }
                searched.merge("object bytes", (long) bytes.length, Long::sum);
                searchText("objects", latin1(bytes), bucket + "/" + object.key());
            }
        }
    }

    /** Every file named *.log under the work directory: the services' logs, the servers' (Kafka, S3Proxy, PostgreSQL), the bad start's, and Kafka's segment files (also named *.log). */
    private void searchLogs(Path work) throws IOException {
        try (Stream<Path> files = Files.walk(work)) {
            for (Path file : files.filter(Files::isRegularFile).filter(f -> f.getFileName().toString().endsWith(".log")).toList()) {
                searched.merge(file.startsWith(work.resolve("logs")) ? "service log files" : "other log and segment files", 1L, Long::sum);
                searchText("log lines", latin1(Files.readAllBytes(file)), work.relativize(file).toString());
            }
        }
    }

    private void searchText(String what, String text, String where) {
        long lines = text.isEmpty() ? 0 : text.split("\n", -1).length;
        searched.merge(what, Math.max(lines, 1), Long::sum);
        if (occurrences(text) > 0) {
            int at = text.indexOf(canary);
            found.add(where + ": ..." + text.substring(Math.max(0, at - 80), at).replace('\n', ' ') + "[CANARY]");
        }
    }

    private long occurrences(String text) {
        long n = 0;
        for (int at = text.indexOf(canary); at >= 0; at = text.indexOf(canary, at + 1)) {
            n++;
        }
        return n;
    }

    private static String latin1(byte[] bytes) {
        return bytes == null ? "" : new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static int freePort() throws IOException {
        return io.stowage.stack.LoopbackPorts.pick();
    }
}
