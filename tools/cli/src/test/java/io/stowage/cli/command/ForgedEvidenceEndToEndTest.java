package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.CliRun;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.Topics;
import io.stowage.stack.KafkaProbe;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Forgery against the real stack of {@code stowage up} (the packaged services, the broker with SCRAM users and the ACL
 * table): a producer without credentials, with another service's credentials, or with the CLI's own, sends
 * {@code object.uploaded}, {@code object.verified}, {@code gate.passed} and {@code volume.released} for a directory that
 * was never stored. The broker refuses every send (authorization error naming the topic for a logged-in producer; no
 * connection at all without a login), no such record reaches a topic, the directory stays, and its release is denied.
 */
class ForgedEvidenceEndToEndTest {
    private static final List<String> FORGED_TOPICS = List.of(Topics.OBJECT_UPLOADED, Topics.OBJECT_VERIFIED,
            Topics.GATE_PASSED, Topics.VOLUME_RELEASED);
    /** For each forged topic, a principal of the table that is not its writer. */
    private static final Map<String, List<String>> IMPOSTORS = Map.of(
            Topics.OBJECT_UPLOADED, List.of("verifier", "shard-builder", "operator"),
            Topics.OBJECT_VERIFIED, List.of("uploader", "ledger", "operator"),
            Topics.GATE_PASSED, List.of("provider-adapter", "uploader", "operator"),
            Topics.VOLUME_RELEASED, List.of("gatekeeper", "verifier", "operator"));

    private static Path work;
    private static Path target;
    private static Platform platform;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("stowage-forgery-e2e-");
        Path hot = Files.createDirectories(work.resolve("hot"));
        platform = Platform.start(work, List.of(work, hot), List.of(hot), new Progress(System.err, false));
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
        System.setProperty("stowage.token", Files.readString(work.resolve("tokens").resolve(BearerToken.OPERATOR_FILE)).strip());
        target = Files.createDirectories(hot.resolve("datasets/never-stored"));
        Files.writeString(target.resolve("only-copy.txt"), "the only copy of this file");
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
    void forgedEvidenceIsRefusedByTheBrokerAndTheDirectoryStays() {
        String key = "forged-" + UUID.randomUUID();
        for (String topic : FORGED_TOPICS) {
            for (String impostor : IMPOSTORS.get(topic)) {
                Throwable refused = catchThrowable(() -> send(platform.kafkaClient(impostor), topic, key, 15000));

                assertThat(rootCause(refused)).as(impostor + " writing " + topic).isInstanceOf(TopicAuthorizationException.class);
                assertThat(((TopicAuthorizationException) rootCause(refused)).unauthorizedTopics()).containsExactly(topic);
            }
            Map<String, String> anonymous = Map.of("bootstrap.servers", platform.session().stack().kafkaBootstrapServers());
            // a SASL listener answers a client without a login with nothing but a closed connection: the send times out
            assertThat(catchThrowable(() -> send(anonymous, topic, key, 5000))).as("no login, " + topic).isNotNull();
        }

        KafkaProbe superUser = new KafkaProbe(platform.kafkaSuperUser(), Duration.ofSeconds(30));
        for (String topic : FORGED_TOPICS) {
            assertThat(superUser.keysUpToEnd(topic)).as(topic).doesNotContain(key);
        }
        CliRun.Result release = cli("release", target.toString());
        assertThat(release.exit()).as(release.out() + release.err()).isEqualTo(CliException.DENIED);
        assertThat(target.resolve("only-copy.txt")).hasContent("the only copy of this file");
    }

    @Test
    void theRightfulWriterIsNotRefused() throws Exception {
        // control: the same producer, logged in as the topic's one writer, is accepted (to a topic no service acts on)
        String key = "control-" + UUID.randomUUID();
        send(platform.kafkaClient("provider-adapter"), Topics.PROVIDER_ALERT, key, 15000);

        assertThat(new KafkaProbe(platform.kafkaSuperUser(), Duration.ofSeconds(30)).keysUpToEnd(Topics.PROVIDER_ALERT))
                .contains(key);
    }

    @Test
    void aDeadLetterAboutAStoredAssetDeniesItsReleaseUntilAnOperatorHasEveryObjectReReadInFull() throws Exception {
        Path dir = Files.createDirectories(work.resolve("hot/datasets/dead-lettered"));
        for (int i = 0; i < 3; i++) {
            Files.writeString(dir.resolve("clip-" + i + ".txt"), ("clip " + i + " ").repeat(500 + i * 300));
        }
        CliRun.Result built = cli("dataset", "shard", dir.toString(), "--name", "dead-lettered", "--revision", "r1",
                "--license", "CC-BY-4.0", "--shard-bytes", "20000", "--allow-small-shards", "--json");
        assertThat(built.exit()).as(built.err()).isZero();
        String asset = "dataset/dead-lettered/r1";
        assertThat(dryRun(dir)).as("stored and verified: the dry run passes").isZero();

        // the verifier's own login writes a record the ledger cannot read, keyed by the asset: a verdict that may have
        // been a MISMATCH, lost to the dead-letter topic
        send(platform.kafkaClient("verifier"), Topics.OBJECT_VERIFIED, asset, 15000);
        CliRun.Result denied = Awaitility.await("the dead letter denies the asset").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1)).until(() -> cli("release", dir.toString(), "--dry-run", "--json"),
                        r -> r.exit() == CliException.DENIED);
        assertThat(denied.out()).contains("bad-evidence", "dead letter on object.verified.dlq");

        String operator = System.getProperty("stowage.token");
        System.setProperty("stowage.token", Files.readString(work.resolve("tokens").resolve(BearerToken.READER_FILE)).strip());
        CliRun.Result asReader;
        try {
            asReader = cli("audit", "reread", asset);
        } finally {
            System.setProperty("stowage.token", operator);
        }
        assertThat(asReader.exit()).as("a reader may not ask for re-reads: " + asReader.err()).isEqualTo(4);

        CliRun.Result reread = cli("audit", "reread", asset, "--json");
        assertThat(reread.exit()).as(reread.out() + reread.err()).isZero();
        com.fasterxml.jackson.databind.JsonNode results = io.stowage.events.EventCodec.mapper().readTree(reread.out())
                .path("results");
        assertThat(results).hasSizeGreaterThanOrEqualTo(3); // shards, their member manifests, the dataset manifest
        results.forEach(r -> assertThat(r.path("result").asText()).as(r.toString()).isEqualTo("OK"));
        assertThat(dryRun(dir)).as("every object re-read in full after the dead letter: the dry run passes again").isZero();
        assertThat(dir.resolve("clip-0.txt")).exists();

        CliRun.Result unknown = cli("audit", "reread", "dataset/never-stored/r1");
        assertThat(unknown.exit()).as(unknown.err()).isEqualTo(CliException.USAGE);
        assertThat(unknown.err()).contains("the ledger holds no object of dataset/never-stored/r1");
    }

    private static int dryRun(Path dir) {
        CliRun.Result r = cli("release", dir.toString(), "--dry-run", "--json");
        return r.exit();
    }

    /** Sends one record whose value looks like an event for the target directory; waits at most {@code millis} ms. */
    private static void send(Map<String, String> login, String topic, String key, int millis) throws Exception {
        Map<String, Object> config = new HashMap<>(login);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(millis));
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(Math.max(millis, 11000)));
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        String value = "{\"eventId\":\"" + key + "\",\"topic\":\"" + topic + "\",\"path\":\"" + target
                + "\",\"result\":\"OK\",\"time\":\"" + Instant.now() + "\"}";
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, key, value.getBytes(StandardCharsets.UTF_8))).get();
        }
    }

    private static Throwable rootCause(Throwable t) {
        while (t != null && t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    /** Runs the real command line in this JVM. */
    private static CliRun.Result cli(String... args) {
        return CliRun.run(args);
    }
}
