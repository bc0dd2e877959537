package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.CliRun;
import io.stowage.cli.CliRun.Result;
import io.stowage.cli.Repo;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.demo.DemoRunner;
import io.stowage.cli.evidence.PublishGuard;
import io.stowage.cli.evidence.PublishedScanner;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import io.stowage.cli.platform.StowageHome;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.AssetIds;
import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.stack.StackEndpoints;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code stowage evidence export} through the six packaged services as separate processes against the real Kafka,
 * S3Proxy and PostgreSQL, after the demo's job (a sharded dataset, three checkpoint steps with a replica of the key
 * step, a promoted model): the exported keys, bytes and SHA-256s are what the ledger records and what the store
 * holds, each verification carries the ledger's time; no exported file holds the S3 keys, a bearer token, a bucket
 * name, an endpoint or a service's port, or a signed-URL parameter (and the same scan finds a planted one); dry runs
 * and refusals write nothing. The export reads with the session's reader token, as it does by default.
 */
class EvidenceExportEndToEndTest {
    private static final String DATASET = AssetIds.dataset("speech-en-allison", "r1");
    private static final String KEY_STEP = AssetIds.checkpoint(DemoRunner.EXPERIMENT, DemoRunner.RUN, 150);
    private static final String MODEL = AssetIds.model(DemoRunner.MODEL, DemoRunner.MODEL_REVISION);

    private static Path work;
    private static Platform platform;
    private static JsonNode exported;
    private static JsonNode summary;

    @BeforeAll
    static void runTheDemoAndExport() throws Exception {
        work = Files.createTempDirectory("stowage-evidence-e2e-");
        DemoRunner.HotVolume hot = DemoRunner.HotVolume.prepare(Repo.root(), work);
        platform = Platform.start(work, hot.protectedRoots(work), hot.volumeRoots(), new Progress(System.err, false));
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
        System.setProperty("stowage.token", token(BearerToken.OPERATOR_FILE));
        new DemoRunner(platform.session(), new Progress(System.err, false)).run(hot);
        // from here on the CLI finds no explicit token: the export falls back to $STOWAGE_HOME/tokens/reader.token
        System.clearProperty("stowage.token");

        Result export = CliRun.run("evidence", "export", "--to", work.resolve("site").toString(), "--json");
        assertThat(export.exit()).as(export.err()).isZero();
        assertThat(export.err()).contains("==> reading the evidence of ");
        summary = EventCodec.mapper().readTree(export.out());
        exported = EventCodec.mapper().readTree(work.resolve("site/evidence.json").toFile());
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
    void theExportHoldsTheLedgersKeysAndTheStoresSha256sWithEachVerificationsTime() throws Exception {
        assertThat(exported.path("format").asText()).isEqualTo("stowage-evidence/1");
        assertThat(ids()).contains(DATASET, KEY_STEP, MODEL,
                AssetIds.checkpoint(DemoRunner.EXPERIMENT, DemoRunner.RUN, 50));
        assertThat(summary.path("assets").asInt()).isEqualTo(exported.path("assets").size());
        assertThat(summary.path("files").toString()).isEqualTo("[\"evidence.json\",\"index.html\"]");

        System.setProperty("stowage.token", token(BearerToken.OPERATOR_FILE)); // the test's own look at the ledger
        try {
            for (String assetId : List.of(DATASET, KEY_STEP, MODEL)) {
                assertThat(objects(asset(assetId))).as(assetId).isEqualTo(ledgerObjects(assetId));
            }
        } finally {
            System.clearProperty("stowage.token");
        }

        JsonNode shard = first(asset(DATASET), "primary", "SHARD");
        assertThat(shard.path("key").asText()).isEqualTo("datasets/speech-en-allison/r1/shards/"
                + shard.path("sha256").asText() + ".tar.zst");
        assertStoreHolds(shard, false);
        JsonNode stepFile = first(asset(KEY_STEP), "primary", "CHECKPOINT_FILE");
        assertStoreHolds(stepFile, false);
        JsonNode replicaFile = first(asset(KEY_STEP), "replica", "CHECKPOINT_FILE");
        assertThat(replicaFile.path("sha256").asText()).isEqualTo(stepFile.path("sha256").asText());
        assertStoreHolds(replicaFile, true);

        for (JsonNode object : List.of(shard, stepFile, replicaFile)) {
            assertThat(object.path("verifications")).extracting(v -> v.path("method").asText() + "=" + v.path("result").asText())
                    .containsExactly("HEAD=OK", "FULL_READ=OK");
            for (JsonNode v : object.path("verifications")) {
                assertThat(Instant.parse(v.path("time").asText()).truncatedTo(ChronoUnit.MILLIS))
                        .isEqualTo(eventTime(v.path("eventId").asText()));
            }
        }
        String html = Files.readString(work.resolve("site/index.html"));
        assertThat(html).contains("<h2>" + DATASET + "</h2>", shard.path("key").asText(), shard.path("sha256").asText())
                .doesNotContain("<script", "://");
    }

    @Test
    void noExportedFileHoldsACredentialABucketAnEndpointOrASignedUrlParameterAndTheScanFindsAPlantedOne() throws Exception {
        PublishedScanner scanner = scanner();
        assertThat(scanner.size()).isGreaterThanOrEqualTo(17);
        assertThat(scanner.findings(work.resolve("site"))).isEmpty();
        assertThat(Files.list(work.resolve("site")).map(p -> p.getFileName().toString()).sorted().toList())
                .containsExactly("evidence.json", "index.html");

        Path planted = Files.createDirectories(work.resolve("planted"));
        String json = Files.readString(work.resolve("site/evidence.json"));
        StackEndpoints stack = platform.session().stack();
        Files.writeString(planted.resolve("evidence.json"), json.replaceFirst("\"primary\"", "\"" + stack.primaryBucket() + "\""));
        Files.writeString(planted.resolve("index.html"), Files.readString(work.resolve("site/index.html"))
                + "<!-- " + URI.create(platform.session().services().get("ledger")).getAuthority() + "?X-Amz-Signature=0 -->");
        assertThat(scanner.findings(planted)).containsExactly("evidence.json: the primary bucket name",
                "index.html: the ledger's host:port", "index.html: the ledger's port",
                "index.html: the signed-URL parameter X-Amz-Signature", "index.html: the signed-URL parameter Signature=");
    }

    @Test
    void aSelectionExportsOnlyWhatItNamesAndADryRunWritesNothing() throws Exception {
        Result run = CliRun.run("evidence", "export", "--to", work.resolve("run-only").toString(),
                "--run", DemoRunner.EXPERIMENT + "/" + DemoRunner.RUN);
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode runOnly = EventCodec.mapper().readTree(work.resolve("run-only/evidence.json").toFile());
        assertThat(runOnly.path("assets")).extracting(a -> a.path("assetId").asText())
                .containsExactly(AssetIds.checkpoint(DemoRunner.EXPERIMENT, DemoRunner.RUN, 50),
                        AssetIds.checkpoint(DemoRunner.EXPERIMENT, DemoRunner.RUN, 100), KEY_STEP);

        Path dry = work.resolve("dry");
        Result dryRun = CliRun.run("evidence", "export", "--to", dry.toString(), "--dataset", "speech-en-allison/r1",
                "--dry-run", "--json");
        assertThat(dryRun.exit()).as(dryRun.err()).isZero();
        JsonNode said = EventCodec.mapper().readTree(dryRun.out());
        assertThat(said.path("dryRun").asBoolean()).isTrue();
        assertThat(said.path("assets").asInt()).isEqualTo(1);
        assertThat(said.path("objects").asInt()).isEqualTo(asset(DATASET).path("objects").size());
        assertThat(dry).doesNotExist();
        assertThat(siblings()).noneMatch(name -> name.contains("stowage-export"));

        Result unknown = CliRun.run("evidence", "export", "--to", work.resolve("none").toString(), "--dataset", "no-such");
        assertThat(unknown.exit()).isEqualTo(CliException.FAILED);
        assertThat(work.resolve("none")).doesNotExist();
    }

    @Test
    void aNonEmptyDirectoryIsRefusedInOneLineWithExit2AndLeftUnchanged() throws Exception {
        Path full = Files.createDirectories(work.resolve("published"));
        Files.writeString(full.resolve("evidence.json"), "{\"format\":\"older\"}\n");
        Files.writeString(full.resolve("notes.txt"), "keep me\n");
        List<String> before = siblings();

        Result refused = CliRun.run("evidence", "export", "--to", full.toString());

        assertThat(refused.exit()).isEqualTo(CliException.USAGE);
        assertThat(refused.err().lines().toList()).singleElement().asString()
                .startsWith("stowage: --to " + full + " exists and is not an empty directory");
        assertThat(refused.out()).isEmpty();
        try (Stream<Path> entries = Files.list(full)) {
            assertThat(entries.map(p -> p.getFileName().toString()).sorted()).containsExactly("evidence.json", "notes.txt");
        }
        assertThat(Files.readString(full.resolve("evidence.json"))).isEqualTo("{\"format\":\"older\"}\n");
        assertThat(Files.readString(full.resolve("notes.txt"))).isEqualTo("keep me\n");
        assertThat(siblings()).isEqualTo(before);
    }

    /** Every value of this session that must not be published: S3 keys, tokens, buckets, endpoints, ports, parameters. */
    private static PublishedScanner scanner() throws Exception {
        StackEndpoints stack = platform.session().stack();
        PublishedScanner scanner = new PublishedScanner()
                .literal("the S3 access key", stack.s3AccessKey())
                .literal("the S3 secret key", stack.s3SecretKey())
                .literal("the operator token", token(BearerToken.OPERATOR_FILE))
                .literal("the reader token", token(BearerToken.READER_FILE))
                .literal("the primary bucket name", stack.primaryBucket())
                .literal("the replica bucket name", stack.replicaBucket())
                .literal("the S3 endpoint's host:port", URI.create(stack.s3Endpoint()).getAuthority())
                .port("the S3 endpoint's port", URI.create(stack.s3Endpoint()).getPort())
                .port("the Kafka port", Integer.parseInt(stack.kafkaBootstrapServers().replaceAll(".*:", "")))
                .port("the PostgreSQL port", URI.create(stack.pgJdbcUrl().substring(5)).getPort());
        platform.session().services().forEach((name, url) -> scanner
                .literal("the " + name + "'s host:port", URI.create(url).getAuthority())
                .port("the " + name + "'s port", URI.create(url).getPort()));
        PublishGuard.SIGNED_URL_PARAMETERS.forEach(p -> scanner.literal("the signed-URL parameter " + p, p));
        return scanner;
    }

    private static void assertStoreHolds(JsonNode object, boolean replica) throws Exception {
        try (PrimaryStore store = new PrimaryStore(platform.session().stack(), replica);
             InputStream in = store.open(object.path("key").asText())) {
            byte[] bytes = in.readAllBytes();
            assertThat((long) bytes.length).isEqualTo(object.path("bytes").asLong());
            assertThat(Sha256.of(bytes)).isEqualTo(object.path("sha256").asText());
        }
    }

    private static Set<String> objects(JsonNode asset) {
        Set<String> rows = new java.util.TreeSet<>();
        asset.path("objects").forEach(o -> rows.add(o.path("store").asText() + " " + o.path("key").asText() + " "
                + o.path("bytes").asLong() + " " + o.path("sha256").asText()));
        return rows;
    }

    private static Set<String> ledgerObjects(String assetId) {
        AssetEvidence evidence = new LedgerClient(platform.session().serviceUrl("ledger")).asset(assetId).orElseThrow();
        assertThat(evidence.objects()).isNotEmpty();
        return evidence.objects().stream().map((ObjectEvidence o) -> o.store() + " " + o.key() + " " + o.bytes() + " " + o.sha256())
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    private static JsonNode asset(String assetId) {
        for (JsonNode asset : exported.path("assets")) {
            if (asset.path("assetId").asText().equals(assetId)) {
                return asset;
            }
        }
        throw new AssertionError("not exported: " + assetId);
    }

    private static JsonNode first(JsonNode asset, String store, String kind) {
        for (JsonNode o : asset.path("objects")) {
            if (o.path("store").asText().equals(store) && o.path("kind").asText().equals(kind)) {
                return o;
            }
        }
        throw new AssertionError("no " + kind + " in " + store + " of " + asset.path("assetId").asText());
    }

    private static List<String> ids() {
        List<String> ids = new java.util.ArrayList<>();
        exported.path("assets").forEach(a -> ids.add(a.path("assetId").asText()));
        return ids;
    }

    private static Instant eventTime(String eventId) throws Exception {
        StackEndpoints stack = platform.session().stack();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             var statement = db.prepareStatement("select event_time from ledger_event where event_id = ?")) {
            statement.setString(1, eventId);
            try (ResultSet rows = statement.executeQuery()) {
                assertThat(rows.next()).as("ledger event " + eventId).isTrue();
                return rows.getTimestamp(1).toInstant().truncatedTo(ChronoUnit.MILLIS);
            }
        }
    }

    private static List<String> siblings() throws Exception {
        try (Stream<Path> entries = Files.list(work)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static String token(String file) throws Exception {
        return Files.readString(work.resolve("tokens").resolve(file)).strip();
    }
}
