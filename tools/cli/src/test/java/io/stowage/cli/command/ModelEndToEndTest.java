package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.CliRun.Result;
import io.stowage.cli.CliRun;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import io.stowage.cli.platform.StowageHome;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Model revisions with a real model, Debian's {@code pocketsphinx-en-us} (US-English acoustic and language model,
 * about 37 MB, largest file 27 MB), through the six packaged services as separate processes against the real Kafka,
 * S3Proxy and PostgreSQL, driven by the real {@code stowage model} and {@code stowage release} commands: bad names
 * exit 2; the directory is denied before it is published; publish stores every file at its content address and the
 * model manifest (bytes read back from the store), the ledger records asset {@code model/en-us/r1} with every object
 * re-read; publishing again says "already stored" and sends nothing; other content under the same revision is refused
 * before a byte is sent; fetch gives back every byte; the gate denies the directory while a file differs and passes
 * it once it matches again, and the release frees it; share prints one presigned URL per file whose plain HTTP GET
 * (and the printed curl + sha256sum -c recipe) gives the right bytes, and no URL or signature reaches the ledger, an
 * event or a file under the session (service logs). Skipped, saying so, when the package is not installed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ModelEndToEndTest {
    static final Path POCKETSPHINX = Path.of("/usr/share/pocketsphinx/model/en-us");
    static final String PREFIX = "models/en-us/r1/";

    private static Path work;
    private static Path model;
    private static Platform platform;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(POCKETSPHINX), "Debian's pocketsphinx-en-us is not installed ("
                + POCKETSPHINX + " is absent): skipping the model end-to-end test; apt-get install pocketsphinx-en-us");
        work = Files.createTempDirectory("stowage-model-e2e-");
        Path hot = Files.createDirectories(work.resolve("hot"));
        platform = Platform.start(work, List.of(work, hot), List.of(hot), new Progress(System.err, false));
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
        System.setProperty("stowage.token", Files.readString(work.resolve("tokens").resolve(BearerToken.OPERATOR_FILE)).strip());
        model = hot.resolve("en-us");
        copyTree(POCKETSPHINX, model);
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
    @Order(1)
    void badNamesAndABlankLicenceExitTwoWithOneLine() {
        for (String bad : List.of("a+b", "..", "x/y", "naïve")) {
            Result r = cli("model", "publish", model.toString(), "--model", bad, "--revision", "r1", "--license", "BSD",
                    "--source", "debian");
            assertThat(r.exit()).isEqualTo(CliException.USAGE);
            assertThat(r.err().strip()).startsWith("stowage: --model '" + bad + "' is not a valid name").doesNotContain("\n");
            Result rev = cli("model", "fetch", "--model", "m", "--revision", bad, "--to", work.resolve("x").toString());
            assertThat(rev.exit()).isEqualTo(CliException.USAGE);
            assertThat(rev.err()).contains("--revision");
        }
        Result blank = cli("model", "publish", model.toString(), "--model", "en-us", "--revision", "r1", "--license", " ",
                "--source", "debian");
        assertThat(blank.exit()).isEqualTo(CliException.USAGE);
        assertThat(blank.err().strip()).isEqualTo("stowage: --license and --source must not be blank: the gate needs both");
    }

    @Test
    @Order(2)
    void beforePublishingTheGateDeniesTheDirectory() throws IOException {
        Result denied = cli("release", model.toString(), "--dry-run", "--json");
        assertThat(denied.exit()).isEqualTo(CliException.DENIED);
        assertThat(denied.out()).contains("no-assets");
    }

    @Test
    @Order(3)
    void publishStoresEveryFileAndTheManifestVerifiedAndRecordsTheAsset() throws Exception {
        TreeMap<String, byte[]> local = files(model);
        assertThat(local).containsKeys("en-us.lm.bin", "en-us/mdef", "cmudict-en-us.dict");
        Result stored = cli("model", "publish", model.toString(), "--model", "en-us", "--revision", "r1",
                "--license", "BSD-2-Clause", "--source", "debian:pocketsphinx-en-us_0.8+5prealpha+1-15", "--json");
        assertThat(stored.exit()).as(stored.err()).isZero();
        JsonNode out = EventCodec.mapper().readTree(stored.out());
        assertThat(out.path("status").asText()).isEqualTo("stored");
        assertThat(out.path("files").size()).isEqualTo(local.size());

        try (PrimaryStore store = new PrimaryStore(platform.session().stack())) {
            for (var file : local.entrySet()) {
                String key = ObjectKeys.modelFile("en-us", "r1", Sha256.of(file.getValue()), file.getKey());
                assertThat(read(store, key)).as(key).isEqualTo(file.getValue());
            }
            byte[] manifest = read(store, PREFIX + "manifest.json");
            assertThat(Sha256.of(manifest)).isEqualTo(out.path("manifestSha256").asText());
            JsonNode m = EventCodec.mapper().readTree(manifest);
            assertThat(m.path("format").asText()).isEqualTo("stowage.model.v1");
            assertThat(m.path("license").asText()).isEqualTo("BSD-2-Clause");
            assertThat(m.path("files").size()).isEqualTo(local.size());
            assertThat(store.list(PREFIX)).hasSize(local.size() + 1);
        }
        JsonNode asset = new HttpJson().get(platform.session().serviceUrl("ledger")
                .resolve("/api/assets?id=model/en-us/r1"), JsonNode.class).orElseThrow();
        assertThat(asset.path("kind").asText()).isEqualTo("model");
        assertThat(asset.path("localRoot").asText()).isEqualTo(model.toString());
        assertThat(asset.path("license").asText()).isEqualTo("BSD-2-Clause");
        assertThat(asset.path("objects").size()).isEqualTo(local.size() + 1);
        for (JsonNode o : asset.path("objects")) {
            assertThat(o.path("headResult").asText()).as(o.path("key").asText()).isEqualTo("OK");
            assertThat(o.path("fullReadResult").asText()).as(o.path("key").asText()).isEqualTo("OK");
        }
        assertThat(eventCount("model.published")).isEqualTo(1);
    }

    @Test
    @Order(4)
    void theSameContentAgainSaysAlreadyStoredAndSendsNothing() throws Exception {
        Result again = cli("model", "publish", model.toString(), "--model", "en-us", "--revision", "r1",
                "--license", "BSD-2-Clause", "--source", "debian:pocketsphinx-en-us_0.8+5prealpha+1-15");
        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(again.out()).startsWith("model/en-us/r1: already stored at " + PREFIX);
        assertThat(eventCount("model.published")).isEqualTo(1);
    }

    @Test
    @Order(5)
    void otherContentUnderThePublishedRevisionIsRefusedBeforeAByteIsSent() throws Exception {
        Path other = work.resolve("hot/en-us-changed");
        copyTree(model, other);
        Files.writeString(other.resolve("en-us/noisedict"), "<sil> SIL\n", StandardCharsets.UTF_8);
        List<String> before;
        try (PrimaryStore store = new PrimaryStore(platform.session().stack())) {
            before = store.list("models/");
        }
        Result refused = cli("model", "publish", other.toString(), "--model", "en-us", "--revision", "r1",
                "--license", "BSD-2-Clause", "--source", "debian:pocketsphinx-en-us_0.8+5prealpha+1-15");
        assertThat(refused.exit()).isEqualTo(CliException.FAILED);
        assertThat(refused.err().strip()).startsWith("stowage: refusing to publish model/en-us/r1: a published model"
                + " revision never changes").contains("file en-us/noisedict:").doesNotContain("\n");
        Result licence = cli("model", "publish", model.toString(), "--model", "en-us", "--revision", "r1",
                "--license", "MIT", "--source", "debian:pocketsphinx-en-us_0.8+5prealpha+1-15");
        assertThat(licence.exit()).isEqualTo(CliException.FAILED);
        assertThat(licence.err()).contains("licence 'BSD-2-Clause' stored, 'MIT' here");
        assertThat(eventCount("model.published")).isEqualTo(1);
        try (PrimaryStore store = new PrimaryStore(platform.session().stack())) {
            assertThat(store.list("models/")).isEqualTo(before);
        }
    }

    @Test
    @Order(6)
    void fetchGivesBackEveryByte() throws Exception {
        Path to = work.resolve("fetched");
        Result fetched = cli("model", "fetch", "--model", "en-us", "--revision", "r1", "--to", to.toString(), "--json");
        assertThat(fetched.exit()).as(fetched.err()).isZero();
        TreeMap<String, byte[]> original = files(POCKETSPHINX);
        TreeMap<String, byte[]> copy = files(to);
        assertThat(copy.keySet()).isEqualTo(original.keySet());
        for (String path : original.keySet()) {
            assertThat(copy.get(path)).as(path).isEqualTo(original.get(path));
        }
        assertThat(to.resolve(".stowage-fetch")).doesNotExist();
        Result notEmpty = cli("model", "fetch", "--model", "en-us", "--revision", "r1", "--to", to.toString());
        assertThat(notEmpty.exit()).isEqualTo(CliException.USAGE);
        Result absent = cli("model", "fetch", "--model", "en-us", "--revision", "r9", "--to", work.resolve("f9").toString());
        assertThat(absent.exit()).isEqualTo(CliException.FAILED);
        assertThat(absent.err()).contains("no model revision model/en-us/r9 in the primary store");
    }

    @Test
    @Order(7)
    void shareGivesOneWorkingUrlPerFileAndNoUrlReachesTheLedgerOrALog() throws Exception {
        Result tooLong = cli("model", "share", "--model", "en-us", "--revision", "r1", "--expires", "8d");
        assertThat(tooLong.exit()).isEqualTo(CliException.USAGE);
        assertThat(tooLong.err()).contains("at most 7 days");
        assertThat(eventCount("model.shared")).isZero();

        Result shared = cli("model", "share", "--model", "en-us", "--revision", "r1", "--expires", "72h", "--json");
        assertThat(shared.exit()).as(shared.err()).isZero();
        JsonNode out = EventCodec.mapper().readTree(shared.out());
        assertThat(out.path("expiresInSeconds").asLong()).isEqualTo(72 * 3600);
        TreeMap<String, byte[]> original = files(POCKETSPHINX);
        assertThat(out.path("files").size()).isEqualTo(original.size());
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        List<String> signatures = new ArrayList<>();
        for (JsonNode f : out.path("files")) {
            byte[] expected = original.get(f.path("path").asText());
            assertThat(f.path("bytes").asLong()).isEqualTo(expected.length);
            assertThat(f.path("sha256").asText()).isEqualTo(Sha256.of(expected));
            String url = f.path("url").asText();
            assertThat(url).contains("X-Amz-Expires=259200", "X-Amz-Signature=");
            signatures.add(url.replaceFirst(".*X-Amz-Signature=([0-9a-f]+).*", "$1"));
            var response = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).GET().build(),
                    java.net.http.HttpResponse.BodyHandlers.ofByteArray());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).as(f.path("path").asText()).isEqualTo(expected);
        }
        String recipe = out.path("recipe").asText();
        assertThat(recipe).contains("curl -fsS -o 'en-us/mdef' '", "sha256sum -c SHA256SUMS");
        if (io.stowage.cli.ExternalTools.onPath("curl") && io.stowage.cli.ExternalTools.onPath("sha256sum")) {
            Path receiver = Files.createDirectories(work.resolve("receiver"));
            Files.writeString(receiver.resolve("get.sh"), recipe);
            String ran = io.stowage.cli.ExternalTools.run(receiver, "bash", "get.sh");
            assertThat(ran).contains("en-us/mdef: OK", "en-us.lm.bin: OK").doesNotContain("FAILED");
            assertThat(files(receiver.resolve("en-us-r1")).get("en-us.lm.bin")).isEqualTo(original.get("en-us.lm.bin"));
        } else {
            System.err.println("curl or sha256sum not installed: skipping the recipe run (the URLs were fetched over HTTP)");
        }

        // the CLI returns once Kafka acknowledged model.shared; the ledger stores it a moment later
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
                .pollInterval(java.time.Duration.ofMillis(300)).until(() -> eventCount("model.shared") == 1);
        String ledger = ledgerText();
        assertThat(ledger).contains("\"sharedBy\"", "\"expiresInSeconds\":259200").doesNotContain("X-Amz-Signature");
        for (String signature : signatures) {
            assertThat(ledger).doesNotContain(signature);
        }
        assertThat(filesHolding(work, signatures)).as("files under the session (logs, staging, stack data) holding a signature")
                .isEmpty();
    }

    @Test
    @Order(8)
    void theGateDeniesWhileAFileDiffersThenPassesAndTheReleaseFreesTheDirectory() throws Exception {
        Path readme = model.resolve("en-us/README");
        byte[] original = Files.readAllBytes(readme);
        Files.writeString(readme, "changed after publish\n", StandardCharsets.UTF_8);
        Result changed = cli("release", model.toString(), "--dry-run", "--json");
        assertThat(changed.exit()).isEqualTo(CliException.DENIED);
        assertThat(changed.out()).contains("en-us/README");
        Files.write(readme, original);

        Result dry = cli("release", model.toString(), "--dry-run", "--json");
        assertThat(dry.exit()).as(dry.out()).isZero();
        assertThat(dry.out()).contains("model/en-us/r1", "licence BSD-2-Clause");
        Result released = cli("release", model.toString(), "--json");
        assertThat(released.exit()).as(released.out()).isZero();
        assertThat(model).doesNotExist();
    }

    /**
     * A checkpoint step (a 6 MiB file and a small one) published with its capsule, then promoted: the 6 MiB file is
     * copied inside the store in two UploadPartCopy parts (threshold and part size lowered to 5 MiB), the small one with
     * one CopyObject; the copies hash right, the step's objects stay, the ledger records the revision verified with the
     * step it came from, a second promote says "already stored", and fetch gives back the step's bytes.
     */
    @Test
    @Order(9)
    void aCheckpointStepIsPromotedByCopiesInsideTheStore() throws Exception {
        Path runDir = Files.createDirectories(work.resolve("hot/runs/run1"));
        Files.writeString(runDir.resolve("experiment.json"), "{\"experimentId\":\"exp\",\"codeCommit\":\"0123abc\","
                + "\"configSha256\":\"" + "c".repeat(64) + "\",\"dataManifestSha256\":\"" + "d".repeat(64) + "\"}\n");
        Path step = Files.createDirectories(runDir.resolve("step-000000000150"));
        byte[] weights = new byte[6 << 20];
        new java.util.Random(150).nextBytes(weights);
        Files.write(step.resolve("model.pt"), weights);
        Files.writeString(step.resolve("optimizer.pt"), "adam state\n");
        Result published = cli("checkpoint", "publish", step.toString(), "--experiment", "exp", "--run", "run1");
        assertThat(published.exit()).as(published.err()).isZero();

        Result promoted = cli("model", "promote", "--experiment", "exp", "--run", "run1", "--step", "150",
                "--model", "tiny", "--revision", "from-150", "--license", "MIT", "--part-copy-threshold", "5242880",
                "--part-size", "5242880", "--json");
        assertThat(promoted.exit()).as(promoted.err()).isZero();
        JsonNode out = EventCodec.mapper().readTree(promoted.out());
        assertThat(out.path("status").asText()).isEqualTo("stored");
        assertThat(out.path("fromCheckpoint").asText()).isEqualTo("checkpoint/exp/run1/000000000150");
        assertThat(out.path("parts").toString()).isEqualTo("[2,0]");

        String sha = Sha256.of(weights);
        try (PrimaryStore store = new PrimaryStore(platform.session().stack())) {
            assertThat(read(store, ObjectKeys.modelFile("tiny", "from-150", sha, "model.pt"))).isEqualTo(weights);
            assertThat(read(store, ObjectKeys.checkpointFile("exp", "run1", 150, sha, "model.pt")))
                    .as("the step's object stays").isEqualTo(weights);
            JsonNode manifest = EventCodec.mapper().readTree(read(store, "models/tiny/from-150/manifest.json"));
            assertThat(manifest.path("fromCheckpoint").asText()).isEqualTo("checkpoint/exp/run1/000000000150");
            assertThat(manifest.path("provenance").path("codeCommit").asText()).isEqualTo("0123abc");
            assertThat(manifest.path("source").asText()).isEqualTo("checkpoint/exp/run1/000000000150");
        }
        JsonNode asset = new HttpJson().get(platform.session().serviceUrl("ledger")
                .resolve("/api/assets?id=model/tiny/from-150"), JsonNode.class).orElseThrow();
        assertThat(asset.path("objects").size()).isEqualTo(3);
        for (JsonNode o : asset.path("objects")) {
            assertThat(o.path("headResult").asText()).isEqualTo("OK");
            assertThat(o.path("fullReadResult").asText()).isEqualTo("OK");
        }
        assertThat(ledgerText()).contains("\"fromCheckpoint\":\"checkpoint/exp/run1/000000000150\"");
        // lineage from the step's side: the revision's model.published was caused by the step's checkpoint.published
        JsonNode stepAsset = new HttpJson().get(platform.session().serviceUrl("ledger")
                .resolve("/api/assets?id=checkpoint/exp/run1/000000000150"), JsonNode.class).orElseThrow();
        assertThat(causedBy(stepAsset.path("sealedEventId").asText())).filteredOn(e -> e.startsWith("model."))
                .containsExactly("model.published model/tiny/from-150");

        Result again = cli("model", "promote", "--experiment", "exp", "--run", "run1", "--step", "150",
                "--model", "tiny", "--revision", "from-150", "--license", "MIT");
        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(again.out()).startsWith("model/tiny/from-150: already stored");
        Path to = work.resolve("fetched-promoted");
        assertThat(cli("model", "fetch", "--model", "tiny", "--revision", "from-150", "--to", to.toString()).exit()).isZero();
        assertThat(Files.readAllBytes(to.resolve("model.pt"))).isEqualTo(weights);
        assertThat(to.resolve("optimizer.pt")).hasContent("adam state\n");
    }

    /**
     * Three more steps of run1 with {@code val_loss} (step 150 has none): a selector missing or doubled exits 2 with one
     * line; {@code --best} by a metric no verified step has fails naming it; {@code --best val_loss --mode min} promotes
     * step 200 and says why; the ledger's steps list the revisions promoted from each step and the revision names its
     * step; after an operator's unpin lifts the promote-time pin, retention still keeps both promoted steps and says
     * "promoted to model/…", while the step no revision names expires.
     */
    @Test
    @Order(10)
    void bestByAMetricPromotesTheVerifiedStepWithTheLowestValueAndRetentionKeepsItUnpinned() throws Exception {
        Path runDir = work.resolve("hot/runs/run1");
        for (long n : new long[] {200, 250, 300}) {
            Path step = Files.createDirectories(runDir.resolve("step-" + String.format("%012d", n)));
            Files.writeString(step.resolve("model.pt"), ("weights of " + n + "\n").repeat(1000));
            Result published = cli("checkpoint", "publish", step.toString(), "--experiment", "exp", "--run", "run1",
                    "--metric", "val_loss=" + (n == 200 ? "0.25" : n == 250 ? "0.9" : "0.5"));
            assertThat(published.exit()).as(published.err()).isZero();
        }
        List<String> common = List.of("model", "promote", "--experiment", "exp", "--run", "run1", "--model", "tiny",
                "--license", "MIT");
        for (List<String> bad : List.of(List.of("--revision", "x", "--step", "150", "--latest"),
                List.of("--revision", "x"), List.of("--revision", "x", "--best", "val_loss"),
                List.of("--revision", "x", "--step", "150", "--mode", "min"))) {
            Result r = cli(Stream.concat(common.stream(), bad.stream()).toArray(String[]::new));
            assertThat(r.exit()).as(String.join(" ", bad)).isEqualTo(CliException.USAGE);
            assertThat(r.err().strip()).startsWith("stowage: give exactly one of --step N, --best METRIC --mode min|max or"
                    + " --latest").doesNotContain("\n");
        }
        Result noMetric = cli(Stream.concat(common.stream(), Stream.of("--revision", "x", "--best", "bleu", "--mode", "max"))
                .toArray(String[]::new));
        assertThat(noMetric.exit()).isEqualTo(CliException.FAILED);
        assertThat(noMetric.err()).contains("'bleu'").contains("none of its 4 verified step(s)");

        Result best = cli(Stream.concat(common.stream(), Stream.of("--revision", "best", "--best", "val_loss", "--mode",
                "min", "--json")).toArray(String[]::new));
        assertThat(best.exit()).as(best.err()).isZero();
        JsonNode out = EventCodec.mapper().readTree(best.out());
        assertThat(out.path("status").asText()).isEqualTo("stored");
        assertThat(out.path("fromCheckpoint").asText()).isEqualTo("checkpoint/exp/run1/000000000200");
        assertThat(out.path("chosen").path("step").asLong()).isEqualTo(200);
        assertThat(out.path("chosen").path("selector").asText()).isEqualTo("best");
        assertThat(out.path("chosen").path("value").asDouble()).isEqualTo(0.25);
        assertThat(out.path("chosen").path("reason").asText()).contains("lowest val_loss").contains("3 verified step(s)");

        HttpJson http = new HttpJson();
        JsonNode steps = http.get(platform.session().serviceUrl("ledger")
                .resolve("/api/checkpoints/steps?experiment=exp&run=run1"), JsonNode.class).orElseThrow();
        TreeMap<Long, String> promotedTo = new TreeMap<>();
        steps.path("steps").forEach(s -> promotedTo.put(s.path("step").asLong(), s.path("promotedTo").toString()));
        assertThat(promotedTo).containsEntry(150L, "[\"model/tiny/from-150\"]").containsEntry(200L, "[\"model/tiny/best\"]")
                .containsEntry(250L, "[]").containsEntry(300L, "[]");
        JsonNode from = http.get(platform.session().serviceUrl("ledger").resolve("/api/models/promotion?id=model/tiny/best"),
                JsonNode.class).orElseThrow();
        assertThat(from.path("fromCheckpoint").asText()).isEqualTo("checkpoint/exp/run1/000000000200");

        for (String n : List.of("150", "200")) {
            Result unpinned = cli("checkpoint", "unpin", "--experiment", "exp", "--run", "run1", "--step", n);
            assertThat(unpinned.exit()).as(unpinned.err()).isZero();
        }
        Result plan = cli("retention", "plan", "--experiment", "exp", "--run", "run1", "--keep-last", "1", "--json");
        assertThat(plan.exit()).as(plan.err()).isZero();
        TreeMap<Long, String> decisions = new TreeMap<>();
        EventCodec.mapper().readTree(plan.out()).path("steps").forEach(s -> decisions.put(s.path("step").asLong(),
                s.path("decision").asText() + " " + s.path("keptBy") + " pinned=" + s.path("pinned").asBoolean()));
        assertThat(decisions).containsEntry(150L, "keep [\"promoted\"] pinned=false")
                .containsEntry(200L, "keep [\"promoted\"] pinned=false");
        assertThat(decisions.get(250L)).as("no revision names it").startsWith("expire");
        assertThat(decisions.get(300L)).startsWith("keep").contains("latest");
        Result text = cli("retention", "plan", "--experiment", "exp", "--run", "run1", "--keep-last", "1");
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out()).contains("promoted to model/tiny/best").contains("promoted to model/tiny/from-150");
    }

    static TreeMap<String, byte[]> files(Path dir) throws IOException {
        TreeMap<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
            }
        }
        return files;
    }

    static void copyTree(Path from, Path to) throws IOException {
        List<Path> paths = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(from)) {
            walk.forEach(paths::add);
        }
        for (Path p : paths) {
            Path target = to.resolve(from.relativize(p).toString());
            if (Files.isDirectory(p)) {
                Files.createDirectories(target);
            } else {
                Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    static long eventCount(String topic) throws Exception {
        var stack = platform.session().stack();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             var statement = db.prepareStatement("select count(*) from ledger_event where topic = ?")) {
            statement.setString(1, topic);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** @return "topic asset" of every ledger event whose causation id is {@code eventId} */
    static List<String> causedBy(String eventId) throws Exception {
        var stack = platform.session().stack();
        List<String> found = new ArrayList<>();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             var statement = db.prepareStatement("select topic, asset_id from ledger_event where causation_id = ?")) {
            statement.setString(1, eventId);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    found.add(rows.getString(1) + " " + rows.getString(2));
                }
            }
        }
        return found;
    }

    /** @return every payload and reason of the ledger's event table, one per line */
    static String ledgerText() throws Exception {
        var stack = platform.session().stack();
        StringBuilder text = new StringBuilder();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             var statement = db.prepareStatement("select coalesce(payload, '') || ' ' || coalesce(reason, '') from ledger_event");
             ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                text.append(rows.getString(1)).append('\n');
            }
        }
        return text.toString();
    }

    /**
     * @return every regular file under {@code dir} below 64 MiB (service logs, staging, the stack's data) that holds one
     *         of {@code needles}, read one at a time; the model copies and the receiver's directory (which holds the
     *         recipe it was handed) are skipped
     */
    static List<Path> filesHolding(Path dir, List<String> needles) throws IOException {
        List<Path> holding = new ArrayList<>();
        List<Path> skipped = List.of(dir.resolve("hot"), dir.resolve("fetched"), dir.resolve("receiver"));
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                if (Files.size(p) >= 64L << 20 || skipped.stream().anyMatch(p::startsWith)) {
                    continue;
                }
                String text = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
                if (needles.stream().anyMatch(text::contains)) {
                    holding.add(p);
                }
            }
        }
        return holding;
    }

    static byte[] read(PrimaryStore store, String key) throws IOException {
        try (InputStream in = store.open(key)) {
            return in.readAllBytes();
        }
    }


    private static Result cli(String... args) {
        return CliRun.run(args);
    }
}
