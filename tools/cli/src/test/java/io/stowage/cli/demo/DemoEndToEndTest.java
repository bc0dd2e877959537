package io.stowage.cli.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.luben.zstd.ZstdInputStream;
import io.stowage.cli.CliException;
import io.stowage.cli.ExternalTools;
import io.stowage.cli.Repo;
import io.stowage.cli.StowageCli;
import io.stowage.cli.checkpoint.CheckpointPublisher;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.client.EventPublisher;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.client.ReleaseRequester;
import io.stowage.cli.command.AuditArchiveCommand;
import io.stowage.cli.command.AuditReplayCommand;
import io.stowage.cli.output.Progress;
import io.stowage.cli.output.ReleaseReport;
import io.stowage.cli.platform.Platform;
import io.stowage.events.ConditionResult;
import io.stowage.events.EventCodec;
import io.stowage.events.InventoryEntry;
import io.stowage.events.Sha256;
import io.stowage.events.Topics;
import io.stowage.events.ledger.ReleaseOutcome;
import io.stowage.events.manifest.CheckpointManifest;
import io.stowage.events.manifest.DatasetManifest;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.events.manifest.ShardEntry;
import io.stowage.stack.KafkaProbe;
import io.stowage.stack.StackEndpoints;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The demo flow through all six packaged services, each a separate process, against a real
 * Kafka broker, S3Proxy and PostgreSQL: checks the store, the ledger's rows and the disk.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DemoEndToEndTest {
    private static Path work;
    private static Platform platform;
    private static DemoRunner.HotVolume hot;
    private static DemoReport report;
    private static S3Client s3;

    @BeforeAll
    static void runTheDemo() throws Exception {
        work = Files.createTempDirectory("stowage-e2e-");
        hot = DemoRunner.HotVolume.prepare(Repo.root(), work);
        platform = Platform.start(work, hot.protectedRoots(work), hot.volumeRoots(), new Progress(System.err, false));
        // the session's operator token, as `stowage up` leaves it for the CLI
        System.setProperty("stowage.token", Files.readString(work.resolve("tokens").resolve(BearerToken.OPERATOR_FILE)).strip());
        StackEndpoints stack = platform.session().stack();
        s3 = S3Client.builder().endpointOverride(URI.create(stack.s3Endpoint())).region(Region.of(stack.s3Region()))
                .forcePathStyle(true).httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(stack.s3AccessKey(), stack.s3SecretKey())))
                .build();
        report = new DemoRunner(platform.session(), new Progress(System.err, false)).run(hot);
    }

    @AfterAll
    static void stop() {
        System.clearProperty("stowage.token");
        if (s3 != null) {
            s3.close();
        }
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    @Order(1)
    void everyGatePassedButThePlannedDenial() {
        assertThat(report.dataset().gate()).isEqualTo("passed");
        assertThat(report.dataset().shards()).isGreaterThan(1);
        assertThat(report.dataset().objectsVerified()).isEqualTo(2 * report.dataset().shards() + 1);
        assertThat(report.checkpoints()).extracting(DemoReport.Checkpoint::step).containsExactly(50L, 100L, 150L);
        assertThat(report.checkpoints()).extracting(DemoReport.Checkpoint::gate).containsOnly("passed");
        assertThat(report.checkpoints()).extracting(DemoReport.Checkpoint::copies).containsExactly(1, 1, 2);
        assertThat(report.model().asset()).isEqualTo("model/speech-digits/demo-1");
        assertThat(report.model().fromCheckpoint()).isEqualTo("checkpoint/speech-digits/run-1/000000000150");
        assertThat(report.model().objectsVerified()).isEqualTo(report.model().files() + 1);
        assertThat(report.denied()).singleElement().satisfies(d -> {
            assertThat(d.path()).isEqualTo(hot.run().toString());
            assertThat(d.failed()).anySatisfy(f -> {
                assertThat(f.condition()).isEqualTo(5);
                assertThat(f.detail()).contains("train.log");
            });
        });
        assertThat(report.released()).containsExactly(hot.dataset().toString(),
                hot.run().resolve("step-000000000050").toString(), hot.run().resolve("step-000000000100").toString(),
                hot.run().resolve("step-000000000150").toString());
    }

    @Test
    @Order(2)
    void releasedDirectoriesAreGoneAndTheNeverArchivedFileStays() throws IOException {
        assertThat(hot.dataset()).doesNotExist();
        assertThat(hot.run().resolve("step-000000000050")).doesNotExist();
        assertThat(hot.run().resolve("train.log")).hasContent("stdout of the training run: never archived");
        assertThat(Repo.root().resolve("examples/samples/speech-en-allison/digits/7.wav")).exists();
    }

    @Test
    @Order(3)
    void theStoreHoldsEveryShardAtItsContentAddressAndEveryMemberMatchesItsManifest() throws Exception {
        StackEndpoints stack = platform.session().stack();
        String prefix = "datasets/speech-en-allison/r1/";
        DatasetManifest manifest = EventCodec.mapper().readValue(get(stack.primaryBucket(), prefix + "manifest.json"), DatasetManifest.class);
        assertThat(manifest.license()).isEqualTo("CC-BY-SA-3.0");
        assertThat(manifest.shards()).hasSize(report.dataset().shards());
        Map<String, String> expected = sourceHashes(Repo.root().resolve("examples/samples/speech-en-allison"));
        Map<String, String> archived = new LinkedHashMap<>();
        for (ShardEntry shard : manifest.shards()) {
            byte[] shardBytes = get(stack.primaryBucket(), shard.key());
            assertThat(shard.key()).isEqualTo(prefix + "shards/" + shard.sha256() + ".tar.zst");
            assertThat(Sha256.of(shardBytes)).isEqualTo(shard.sha256());
            assertThat((long) shardBytes.length).isEqualTo(shard.bytes());
            List<MemberEntry> members = members(get(stack.primaryBucket(), shard.membersKey()));
            Map<String, String> inTar = untar(shardBytes);
            assertThat(inTar.keySet()).containsExactlyElementsOf(members.stream().map(MemberEntry::path).toList());
            members.forEach(m -> assertThat(inTar.get(m.path())).as(m.path()).isEqualTo(m.sha256()));
            members.forEach(m -> archived.put(m.path(), m.sha256()));
            assertGnuTarLists(shardBytes, members);
        }
        assertThat(archived).isEqualTo(expected);

        // the same shards, read back from the store by 'stowage dataset verify' (shard-format's ShardReader)
        Path home = Files.createDirectories(work.resolve("home"));
        platform.session().writeTo(home.resolve("session.json"));
        JsonNode verified = EventCodec.mapper().readTree(runCli(home, "dataset", "verify", "--dataset", "speech-en-allison",
                "--revision", "r1", "--json"));
        assertThat(verified.path("shardsOk").asInt()).isEqualTo(manifest.shards().size());
        assertThat(verified.path("shardsFailed").asInt()).isZero();
        assertThat(verified.path("memberBytes").asLong()).isEqualTo(manifest.memberBytes());
        assertThat(verified.path("shards").findValuesAsText("sha256"))
                .containsExactlyElementsOf(manifest.shards().stream().map(ShardEntry::sha256).toList());
    }

    @Test
    @Order(3)
    void theReleasedDatasetIsFetchedBackWithEveryMemberAsItWas() throws Exception {
        // prefetch: the released hot copy is gone; the shards come back from the store, verified, then unpacked
        Path to = work.resolve("prefetch");
        Path home = Files.createDirectories(work.resolve("home-prefetch"));
        platform.session().writeTo(home.resolve("session.json"));
        String out = runCli(home, "dataset", "fetch", "--dataset", DemoRunner.DATASET, "--revision",
                DemoRunner.REVISION, "--to", to.toString(), "--extract", "--json");
        com.fasterxml.jackson.databind.JsonNode json = EventCodec.mapper().readTree(out);
        assertThat(json.get("shards").asInt()).isEqualTo(report.dataset().shards());
        assertThat(json.get("fetched").asInt()).isEqualTo(report.dataset().shards());
        assertThat(json.get("failures")).isEmpty();
        Map<String, String> expected = sourceHashes(Repo.root().resolve("examples/samples/speech-en-allison"));
        assertThat(json.get("extractedMembers").asLong()).isEqualTo(expected.size());
        assertThat(sourceHashes(to.resolve("members"))).isEqualTo(expected);
    }

    @Test
    @Order(4)
    void theKeyCheckpointHasASecondCopyInTheReplicaBucket() throws Exception {
        StackEndpoints stack = platform.session().stack();
        List<String> replica = s3.listObjectsV2Paginator(b -> b.bucket(stack.replicaBucket()).prefix("checkpoints/"))
                .contents().stream().map(S3Object::key).toList();
        assertThat(replica).hasSize(3).allMatch(k -> k.startsWith("checkpoints/speech-digits/run-1/000000000150/"));
        List<String> primary = s3.listObjectsV2Paginator(b -> b.bucket(stack.primaryBucket()).prefix("checkpoints/"))
                .contents().stream().map(S3Object::key).filter(k -> !k.endsWith("/latest.json")).toList();
        assertThat(primary).hasSize(9);
        // the uploader writes the run's pointer once every file of a step is verified; the newest step wins
        String latestKey = "checkpoints/speech-digits/run-1/latest.json";
        Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> assertThat(
                io.stowage.events.EventCodec.mapper().readValue(get(stack.primaryBucket(), latestKey),
                        io.stowage.events.manifest.LatestCheckpoint.class).step()).isEqualTo(150));
        io.stowage.events.manifest.LatestCheckpoint latest = io.stowage.events.EventCodec.mapper()
                .readValue(get(stack.primaryBucket(), latestKey), io.stowage.events.manifest.LatestCheckpoint.class);
        assertThat(latest.files()).extracting(io.stowage.events.manifest.LatestCheckpoint.File::path)
                .containsExactly("model.pt", "optimizer.pt", "provenance.json");
        for (io.stowage.events.manifest.LatestCheckpoint.File file : latest.files()) {
            assertThat(Sha256.of(get(stack.primaryBucket(), file.key()))).isEqualTo(file.sha256());
        }
        for (String key : replica) {
            byte[] copy = get(stack.replicaBucket(), key);
            assertThat(key).contains("/" + Sha256.of(copy) + "/");
            assertThat(copy).isEqualTo(get(stack.primaryBucket(), key));
        }
    }

    @Test
    @Order(5)
    void theLedgerHoldsEveryEventOfEveryTopicExactlyOnce() {
        StackEndpoints stack = platform.session().stack();
        KafkaProbe kafka = new KafkaProbe(platform.kafkaSuperUser(), Duration.ofSeconds(60));
        Map<String, Long> onTopics = new java.util.TreeMap<>();
        for (String topic : Topics.ALL) {
            // at-least-once: a record may be sent twice with the same event id (the ledger stores it once), so the
            // broker's side is the events on it; a record without an id counts on its own
            onTopics.put(topic, kafka.recordsUpToEnd(topic).stream().map(record -> java.util.Objects.requireNonNullElse(
                    KafkaProbe.header(record, io.stowage.events.CloudEventHeaders.ID), "offset-" + record.offset()))
                    .distinct().count());
        }
        // the ledger may still be consuming the last records: wait until it has them all, then demand equality
        Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(ledgerRowsPerTopic(stack)).isEqualTo(onTopics));
        assertThat(onTopics).containsEntry(Topics.GATE_DENIED, 1L).containsEntry(Topics.VOLUME_RELEASED, 4L);
        assertThat(onTopics.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(report.ledgerEvents());
    }

    private static Map<String, Long> ledgerRowsPerTopic(StackEndpoints stack) throws Exception {
        Map<String, Long> rows = new java.util.TreeMap<>();
        Topics.ALL.forEach(topic -> rows.put(topic, 0L));
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             ResultSet result = db.createStatement().executeQuery(
                     "select topic, count(*) from ledger_event where not dead_letter group by topic")) {
            while (result.next()) {
                rows.put(result.getString(1), result.getLong(2));
            }
        }
        return rows;
    }

    /** Replay: the projections rebuilt from the topics of the whole demo equal the live ones (runs last: after the archive too). */
    @Test
    @Order(11)
    void aReplayOfTheDemoFromTheTopicsMatchesTheLiveProjections() {
        AuditReplayCommand.Report replay = new HttpJson().post(platform.session().serviceUrl("ledger").resolve("/api/audit/replay"),
                Map.of(), AuditReplayCommand.Report.class, Duration.ofMinutes(10));
        assertThat(replay.differences()).isEmpty();
        assertThat(replay.identical()).isTrue();
        assertThat(replay.liveCaughtUp()).isTrue();
        assertThat(replay.events()).isGreaterThanOrEqualTo(report.ledgerEvents());
        assertThat(replay.rows().get("ledger_object")).isPositive();
        assertThat(replay.rows().get("ledger_release")).isGreaterThanOrEqualTo(5);
    }

    @Test
    @Order(6)
    void aCheckpointThatChangesBetweenPublishAndUploadIsRefusedAndNothingIsRemoved() throws Exception {
        Path step = Files.createDirectories(work.resolve("hot/checkpoints/speech-digits/run-2/step-000000000001"));
        Files.writeString(step.resolve("model.pt"), "weights at publish time");
        Files.writeString(step.resolve("provenance.json"), Files.readString(
                Repo.root().resolve("examples/pytorch/checkpoints/speech-digits/run-1/step-000000000050/provenance.json")));
        CheckpointPublisher.Prepared prepared = new CheckpointPublisher(Path.of(platform.session().stagingDir()), Clock.systemUTC())
                .prepare(step, "speech-digits", "run-2", 1, false, List.of());
        Files.writeString(step.resolve("model.pt"), "weights overwritten by a later step");
        try (EventPublisher publisher = new EventPublisher(platform.session().kafkaClient())) {
            publisher.publish(prepared.event());
        }
        LedgerClient ledger = new LedgerClient(platform.session().serviceUrl("ledger"));
        assertThatThrownBy(() -> ledger.awaitVerified(prepared.event().assetId(), 2, Duration.ofSeconds(60)))
                .isInstanceOf(CliException.class).hasMessageContaining("model.pt");
        assertThat(s3.listObjectsV2(b -> b.bucket(platform.session().stack().primaryBucket())
                .prefix("checkpoints/speech-digits/run-2/")).contents())
                .noneMatch(o -> o.key().endsWith("/model.pt"));
        assertThat(step.resolve("model.pt")).hasContent("weights overwritten by a later step");
        CheckpointManifest manifest = prepared.manifest();
        assertThat(manifest.files()).extracting(MemberEntry::path).contains("model.pt");
    }

    @Test
    @Order(7)
    void aDryRunPassesOrDeniesButNeverDeletes() throws Exception {
        Path step = work.resolve("hot/checkpoints/speech-digits/run-2/step-000000000001");
        try (EventPublisher publisher = new EventPublisher(platform.session().kafkaClient())) {
            var outcome = requester(publisher).release(step, true, Duration.ofSeconds(90));
            assertThat(outcome.gate()).isEqualTo("denied");
            assertThat(outcome.released()).isFalse();
            assertThat(ReleaseReport.exitCode(outcome)).isEqualTo(CliException.DENIED);
            ReleaseReport.Json plan = ReleaseReport.json(outcome);
            assertThat(plan.conditions()).extracting(ConditionResult::condition).containsExactly(1, 2, 3, 4, 5);
            assertThat(plan.conditions().get(4).passed()).isFalse();
            assertThat(plan.conditions().get(4).reason()).contains("model.pt");
            assertThat(plan.files()).isEmpty();
            assertThat(plan.totalBytes()).isZero();
        }
        assertThat(step.resolve("model.pt")).exists();
    }

    @Test
    @Order(9)
    void aDryRunPlanNamesEachConditionWithItsLedgerEvidenceAndTheFilesItWouldFree() throws Exception {
        Path step = Files.createDirectories(work.resolve("hot/checkpoints/speech-digits/run-3/step-000000000001"));
        Files.writeString(step.resolve("model.pt"), "weights of run 3");
        Files.writeString(step.resolve("provenance.json"), Files.readString(
                Repo.root().resolve("examples/pytorch/checkpoints/speech-digits/run-1/step-000000000050/provenance.json")));
        Map<String, String> before = DemoRunner.snapshot(step).entrySet().stream().collect(
                java.util.stream.Collectors.toMap(e -> e.getKey().toString(), Map.Entry::getValue));
        CheckpointPublisher.Prepared prepared = new CheckpointPublisher(Path.of(platform.session().stagingDir()), Clock.systemUTC())
                .prepare(step, "speech-digits", "run-3", 1, false, List.of());
        LedgerClient ledger = new LedgerClient(platform.session().serviceUrl("ledger"));
        ReleaseOutcome outcome;
        try (EventPublisher publisher = new EventPublisher(platform.session().kafkaClient())) {
            publisher.publish(prepared.event());
            ledger.awaitVerified(prepared.event().assetId(), 2, Duration.ofSeconds(90));
            outcome = requester(publisher).release(step, true, Duration.ofSeconds(90));
        }

        assertThat(outcome.gate()).isEqualTo("passed");
        assertThat(ReleaseReport.exitCode(outcome)).isZero();
        ReleaseReport.Json plan = ReleaseReport.json(outcome);
        assertThat(plan.assets()).containsExactly(prepared.event().assetId());
        assertThat(plan.conditions()).extracting(ConditionResult::condition, ConditionResult::passed).containsExactly(
                tuple(1, true), tuple(2, true), tuple(3, true), tuple(4, true), tuple(5, true));
        assertThat(plan.files()).extracting(InventoryEntry::path, InventoryEntry::bytes, InventoryEntry::sha256).containsExactly(
                tuple("model.pt", Files.size(step.resolve("model.pt")), Sha256.of(Files.readAllBytes(step.resolve("model.pt")))),
                tuple("provenance.json", Files.size(step.resolve("provenance.json")),
                        Sha256.of(Files.readAllBytes(step.resolve("provenance.json")))));
        assertThat(plan.totalBytes()).isEqualTo(Files.size(step.resolve("model.pt")) + Files.size(step.resolve("provenance.json")));
        // every evidence id is an event the ledger stored, of the kind that proves that condition
        Map<Integer, Set<String>> expectedTopics = Map.of(
                1, Set.of(Topics.OBJECT_UPLOADED, Topics.OBJECT_VERIFIED, Topics.CHECKPOINT_PUBLISHED),
                2, Set.of(Topics.OBJECT_VERIFIED), 3, Set.of(Topics.CHECKPOINT_PUBLISHED),
                5, Set.of(Topics.OBJECT_UPLOADED, Topics.OBJECT_VERIFIED));
        for (ConditionResult condition : plan.conditions()) {
            if (condition.condition() == 4) {
                assertThat(condition.evidence()).as("not a key checkpoint: no replica evidence").isEmpty();
                continue;
            }
            assertThat(condition.evidence()).as("evidence of condition %d", condition.condition()).isNotEmpty();
            for (String eventId : condition.evidence()) {
                assertThat(storedTopic(eventId)).as("topic of evidence %s", eventId)
                        .isIn(expectedTopics.get(condition.condition()));
            }
        }
        assertThat(ReleaseReport.table(outcome)).contains("gate passed (dry run: nothing deleted)", "full-read",
                "model.pt", plan.totalBytes() + " bytes");
        Map<String, String> after = DemoRunner.snapshot(step).entrySet().stream().collect(
                java.util.stream.Collectors.toMap(e -> e.getKey().toString(), Map.Entry::getValue));
        assertThat(after).as("a dry run deletes nothing").isEqualTo(before);
    }

    private static String storedTopic(String eventId) throws Exception {
        java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(platform.session().serviceUrl("ledger").resolve("/api/events/" + eventId))
                        .header("Authorization", "Bearer " + System.getProperty("stowage.token"))
                        .GET().build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("ledger has event %s", eventId).isEqualTo(200);
        return EventCodec.mapper().readTree(response.body()).get("topic").asText();
    }

    @Test
    @Order(8)
    void aProtectedRootIsRefusedBeforeAnythingIsAsked() {
        try (EventPublisher publisher = new EventPublisher(platform.session().kafkaClient())) {
            for (Path root : List.of(hot.root(), hot.root().resolve("checkpoints"), Path.of("/"))) {
                assertThatThrownBy(() -> requester(publisher).release(root, false, Duration.ofSeconds(5)))
                        .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exitCode()).isEqualTo(CliException.USAGE))
                        .hasMessageContaining("is protected");
            }
        }
        assertThat(hot.run().resolve("train.log")).exists();
    }

    /**
     * Milestone archives: {@code stowage audit archive --run} of the demo's run puts a jsonl.zst at
     * {@code ledger/archives/run/<E>/<R>/<sha256>.jsonl.zst} whose SHA-256 is its name, which decompresses to the run's
     * events in chain order (each line's link as the ledger stored it), holds no credential or signed URL, is verified
     * (HEAD and full read OK in the ledger), and is the same object when archived again.
     */
    @Test
    @Order(10)
    void archivingTheDemoRunStoresAVerifiedHashBoundJsonlZstOfItsEventsInChainOrder() throws Exception {
        Path home = Files.createDirectories(work.resolve("home"));
        platform.session().writeTo(home.resolve("session.json"));
        String runAsset = "run/" + DemoRunner.EXPERIMENT + "/" + DemoRunner.RUN;
        String stepPrefix = "checkpoint/" + DemoRunner.EXPERIMENT + "/" + DemoRunner.RUN + "/";
        StackEndpoints stack = platform.session().stack();

        String out = runCli(home, "audit", "archive", "--run", DemoRunner.EXPERIMENT + "/" + DemoRunner.RUN, "--json");
        AuditArchiveCommand.Result result = EventCodec.mapper().readValue(out, AuditArchiveCommand.Result.class);
        assertThat(result.verified()).isTrue();
        assertThat(result.key()).isEqualTo("ledger/archives/" + runAsset + "/" + result.sha256() + ".jsonl.zst");

        byte[] stored = get(stack.primaryBucket(), result.key());
        assertThat(Sha256.of(stored)).isEqualTo(result.sha256());
        assertThat(stored).hasSize((int) result.bytes());
        String text;
        try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(stored))) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> lines = List.of(text.split("\n"));
        var header = EventCodec.mapper().readTree(lines.get(0));
        assertThat(header.get("format").asText()).isEqualTo("stowage-ledger-archive-v1");
        assertThat(header.get("archivedAsset").asText()).isEqualTo(runAsset);

        Map<Long, String> linkBySeq = new LinkedHashMap<>();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             ResultSet rows = db.createStatement().executeQuery("select seq, chain_hash from ledger_event where asset_id like '"
                     + stepPrefix + "%' or correlation_id like '" + stepPrefix + "%' or asset_id = '" + runAsset
                     + "' order by seq")) {
            while (rows.next()) {
                linkBySeq.put(rows.getLong(1), rows.getString(2));
            }
        }
        assertThat(linkBySeq).hasSizeGreaterThan(20);
        assertThat(header.get("events").asLong()).isEqualTo(linkBySeq.size());
        assertThat(lines).hasSize(linkBySeq.size() + 1);
        List<Long> seqs = new ArrayList<>();
        Set<String> topics = new java.util.TreeSet<>();
        for (String line : lines.subList(1, lines.size())) {
            var node = EventCodec.mapper().readTree(line);
            String row = line.substring(line.indexOf("\"row\":") + 6, line.length() - 1);
            String recomputed = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(
                    (node.get("previousHash").asText() + "\n" + row).getBytes(StandardCharsets.UTF_8)));
            long seq = node.get("row").get("seq").asLong();
            assertThat(node.get("chainHash").asText()).isEqualTo(recomputed).isEqualTo(linkBySeq.get(seq));
            assertThat(node.get("row").get("assetId").asText()).startsWith(stepPrefix);
            seqs.add(seq);
            topics.add(node.get("row").get("topic").asText());
        }
        assertThat(seqs).containsExactlyElementsOf(linkBySeq.keySet());
        assertThat(topics).contains(Topics.CHECKPOINT_PUBLISHED, Topics.OBJECT_UPLOADED, Topics.OBJECT_VERIFIED);
        assertThat(header.get("lastChainHash").asText()).isEqualTo(linkBySeq.get(seqs.get(seqs.size() - 1)));

        assertThat(text).doesNotContainIgnoringCase("X-Amz-Signature").doesNotContainIgnoringCase("X-Amz-Credential")
                .doesNotContain(stack.s3AccessKey()).doesNotContain(stack.s3SecretKey()).doesNotContain(stack.pgPassword() + "@");

        Map<String, String> verified = new LinkedHashMap<>();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             ResultSet rows = db.createStatement().executeQuery("select topic, payload from ledger_event where asset_id = 'archive/"
                     + runAsset + "' order by seq")) {
            while (rows.next()) {
                var payload = EventCodec.mapper().readTree(rows.getString(2));
                if (rows.getString(1).equals(Topics.OBJECT_VERIFIED)) {
                    verified.put(payload.get("method").asText(), payload.get("result").asText());
                    assertThat(payload.get("key").asText()).isEqualTo(result.key());
                }
            }
        }
        assertThat(verified).containsEntry("HEAD", "OK").containsEntry("FULL_READ", "OK");

        // archived again, after its own events landed: the same bytes, the same key
        String again = runCli(home, "audit", "archive", "--run", DemoRunner.EXPERIMENT + "/" + DemoRunner.RUN, "--json");
        AuditArchiveCommand.Result second = EventCodec.mapper().readValue(again, AuditArchiveCommand.Result.class);
        assertThat(second.key()).isEqualTo(result.key());
        assertThat(second.sha256()).isEqualTo(result.sha256());
        assertThat(runCli(home, "audit", "archive", "--dataset", DemoRunner.DATASET + "@" + DemoRunner.REVISION, "--dry-run", "--json"))
                .contains("\"key\":\"ledger/archives/dataset/" + DemoRunner.DATASET + "/" + DemoRunner.REVISION + "/");
    }

    /** Runs {@code stowage ARGS} in this JVM against the session in {@code home}; returns stdout, exit 0 asserted. */
    private static String runCli(Path home, String... args) {
        java.io.PrintStream saved = System.out;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        String savedHome = System.getProperty("stowage.home");
        System.setProperty("stowage.home", home.toString());
        int code;
        try {
            System.setOut(new java.io.PrintStream(captured, true, StandardCharsets.UTF_8));
            code = StowageCli.execute(args);
        } finally {
            System.setOut(saved);
            if (savedHome == null) {
                System.clearProperty("stowage.home");
            } else {
                System.setProperty("stowage.home", savedHome);
            }
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        assertThat(code).as("stowage %s: %s", String.join(" ", args), out).isZero();
        return out;
    }

    private static ReleaseRequester requester(EventPublisher publisher) {
        return new ReleaseRequester(platform.session().serviceUrl("gatekeeper"),
                new LedgerClient(platform.session().serviceUrl("ledger")),
                io.stowage.events.ProtectedRoots.parse(platform.session().protectedRoots()));
    }

    /**
     * Bearer tokens: {@code stowage release} with a reader's token or an unknown token exits 4 with one line, deletes
     * nothing, and each refusal is in the ledger ({@code GET /api/refusals}) with who and why, never the token.
     */
    @Test
    @Order(12)
    void aReleaseWithoutAnOperatorTokenIsRefusedAndRecorded() throws Exception {
        Path home = Files.createDirectories(work.resolve("home-tokens"));
        platform.session().writeTo(home.resolve("session.json"));
        String reader = Files.readString(work.resolve("tokens").resolve(BearerToken.READER_FILE)).strip();
        String unknown = "not-a-token-" + java.util.UUID.randomUUID();
        Path target = hot.run();
        Map<Path, String> before = DemoRunner.snapshot(target);

        String[] asReader = runCliAs(home, reader, "release", target.toString());
        String[] asUnknown = runCliAs(home, unknown, "release", "--dry-run", target.toString());

        assertThat(asReader[0]).isEqualTo("4");
        assertThat(asReader[2].strip()).doesNotContain("\n").startsWith("stowage: /api/releases refused: this needs an operator token");
        assertThat(asReader[2].lines().count()).isEqualTo(1);
        assertThat(asUnknown[0]).isEqualTo("4");
        assertThat(asUnknown[2].strip()).startsWith("stowage: /api/releases refused: no or unknown bearer token");
        assertThat(DemoRunner.snapshot(target)).as("nothing deleted").isEqualTo(before);

        LedgerClient ledger = new LedgerClient(platform.session().serviceUrl("ledger"));
        com.fasterxml.jackson.databind.JsonNode refusals = org.awaitility.Awaitility.await("the ledger recorded both refusals")
                .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300))
                .until(() -> new HttpJson().get(platform.session().serviceUrl("ledger").resolve("/api/refusals?limit=1000"),
                        com.fasterxml.jackson.databind.JsonNode.class).orElseThrow(), rows -> rows.size() >= 2);
        List<String> rows = new java.util.ArrayList<>();
        refusals.forEach(r -> rows.add(r.get("service").asText() + " " + r.get("method").asText() + " " + r.get("path").asText()
                + " " + r.get("status").asInt() + " " + r.get("reason").asText() + " " + r.path("tokenName").asText("null")));
        assertThat(rows).contains("gatekeeper POST /api/releases 403 insufficient-role cli-reader",
                "gatekeeper POST /api/releases 401 unknown-token null");
        assertThat(refusals.toString()).doesNotContain(reader).doesNotContain(unknown)
                .doesNotContain(System.getProperty("stowage.token"));
        assertThat(ledger.status().events()).isGreaterThan(0);
    }

    /** Runs {@code stowage ARGS} in this JVM with {@code token}; returns {exit code, stdout, stderr}. */
    private static String[] runCliAs(Path home, String token, String... args) {
        java.io.PrintStream savedOut = System.out;
        java.io.PrintStream savedErr = System.err;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        String savedHome = System.getProperty("stowage.home");
        String savedToken = System.getProperty("stowage.token");
        System.setProperty("stowage.home", home.toString());
        System.setProperty("stowage.token", token);
        int code;
        try {
            System.setOut(new java.io.PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
            code = StowageCli.execute(args);
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
            System.setProperty("stowage.token", savedToken);
            if (savedHome == null) {
                System.clearProperty("stowage.home");
            } else {
                System.setProperty("stowage.home", savedHome);
            }
        }
        return new String[]{String.valueOf(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    private static byte[] get(String bucket, String key) {
        return s3.getObject(b -> b.bucket(bucket).key(key), ResponseTransformer.toBytes()).asByteArray();
    }

    private static List<MemberEntry> members(byte[] jsonl) throws IOException {
        List<MemberEntry> members = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(new ByteArrayInputStream(jsonl), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank()) {
                    members.add(EventCodec.mapper().readValue(line, MemberEntry.class));
                }
            }
        }
        return members;
    }

    private static Map<String, String> untar(byte[] shard) throws Exception {
        Map<String, String> hashes = new LinkedHashMap<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new ZstdInputStream(new ByteArrayInputStream(shard)))) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                if (entry.isFile()) {
                    hashes.put(entry.getName(), Sha256.of(tar.readAllBytes()));
                }
            }
        }
        return hashes;
    }

    /** GNU tar (with the zstd program) must list the shard and extract members whose sha256sum matches the member manifest. */
    private static void assertGnuTarLists(byte[] shard, List<MemberEntry> members) throws Exception {
        if (!ExternalTools.onPath("tar") || !ExternalTools.onPath("zstd")) {
            System.err.println("GNU tar or zstd not installed: skipping the GNU tar check of one shard");
            return;
        }
        Path dir = Files.createTempDirectory(work, "gnu-tar-");
        Path file = dir.resolve("shard.tar.zst");
        Files.write(file, shard);
        assertThat(ExternalTools.run(dir, "tar", "--zstd", "-tvf", file.toString())).contains(members.get(0).path());
        ExternalTools.run(dir, "tar", "--zstd", "-xf", file.toString());
        for (MemberEntry member : members) {
            String sum = ExternalTools.run(dir, "sha256sum", member.path());
            assertThat(sum).startsWith(member.sha256());
        }
    }

    private static Map<String, String> sourceHashes(Path dir) throws IOException {
        Map<String, String> hashes = new LinkedHashMap<>();
        try (var walk = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) walk.filter(Files::isRegularFile).sorted()::iterator) {
                hashes.put(dir.relativize(file).toString(), Sha256.of(file));
            }
        }
        return hashes;
    }

}
