package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliRun;
import io.stowage.cli.CliRun.Result;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.EventCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dataset of 30,000 files through the six packaged services against the real Kafka, S3Proxy and PostgreSQL: its
 * inventory (some 4 MB of JSON) is larger than a Kafka record may be, which once dead-lettered the release. Now the
 * decision travels by reference: the dry run and the release both end, the release frees every file, and the
 * decision's record stays small while its parts hold the list.
 */
class LargeInventoryReleaseEndToEndTest {
    private static final int FILES = 30_000;
    private static Path work;
    private static Path dataset;
    private static Platform platform;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("stowage-large-inventory-e2e-");
        Path hot = Files.createDirectories(work.resolve("hot"));
        platform = Platform.start(work, List.of(work, hot), List.of(hot), new Progress(System.err, false));
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
        System.setProperty("stowage.token", Files.readString(work.resolve("tokens").resolve(BearerToken.OPERATOR_FILE)).strip());
        dataset = hot.resolve("speech-many");
        Random random = new Random(3);
        for (int i = 0; i < FILES; i++) {
            Path file = dataset.resolve(String.format("speaker-%03d/utterance-%06d.wav", i % 300, i));
            Files.createDirectories(file.getParent());
            byte[] bytes = new byte[64 + random.nextInt(64)];
            random.nextBytes(bytes);
            Files.write(file, bytes);
        }
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
    void aReleaseOfThirtyThousandFilesIsDecidedByReferenceAndFreesEveryFile() throws Exception {
        long bytes;
        try (var files = Files.walk(dataset)) {
            bytes = files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
        Result built = CliRun.run("dataset", "shard", dataset.toString(), "--name", "speech-many", "--revision", "r1",
                "--license", "CC-BY-4.0", "--shard-bytes", "2000000", "--allow-small-shards", "--json");
        assertThat(built.exit()).as(built.err()).isZero();

        Result dryRun = CliRun.run("release", dataset.toString(), "--dry-run", "--json");
        assertThat(dryRun.exit()).as(dryRun.err()).isZero();
        JsonNode plan = EventCodec.mapper().readTree(dryRun.out());
        assertThat(plan.path("fileCount").asInt()).isEqualTo(FILES);
        assertThat(plan.path("totalBytes").asLong()).isEqualTo(bytes);
        assertThat(dataset).as("a dry run deletes nothing").isDirectory();

        Result release = CliRun.run("release", dataset.toString(), "--json");
        assertThat(release.exit()).as(release.err()).isZero();
        JsonNode outcome = EventCodec.mapper().readTree(release.out());
        assertThat(outcome.path("released").asBoolean()).as(release.out()).isTrue();
        assertThat(dataset).doesNotExist();

        String requestId = outcome.path("requestId").asText();
        JsonNode parts = new HttpJson().get(platform.session().serviceUrl("ledger")
                .resolve("/api/payloads?assetId=release/" + requestId + "&topic=gate.inventory"), JsonNode.class).orElseThrow();
        int entries = 0;
        for (JsonNode part : payloads(parts)) {
            entries += part.path("entries").size();
        }
        assertThat(entries).as("the ledger keeps the parts, which list every file").isEqualTo(FILES);
        JsonNode decision = payloads(new HttpJson().get(platform.session().serviceUrl("ledger")
                .resolve("/api/payloads?assetId=release/" + requestId + "&topic=gate.passed"), JsonNode.class).orElseThrow()).get(0);
        assertThat(decision.path("inventoryParts").asInt()).isGreaterThan(1);
        assertThat(decision.path("inventory").size()).isZero();
        assertThat(decision.toString().length()).as("the decision record itself").isLessThan(64 * 1024);
    }

    private static List<JsonNode> payloads(JsonNode answer) {
        JsonNode list = answer.isArray() ? answer : answer.path("payloads");
        List<JsonNode> out = new java.util.ArrayList<>();
        list.forEach(n -> out.add(n.has("payload") ? n.path("payload") : n));
        return out;
    }
}
