package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.luben.zstd.ZstdOutputStream;
import io.stowage.cli.StowageCli;
import io.stowage.cli.platform.Session;
import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.DatasetManifest;
import io.stowage.events.manifest.ShardEntry;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.store.s3.UploadTuning;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code stowage dataset fetch} in this JVM against the stack's real S3Proxy and a session file: the JSON report,
 * the shards' and members' bytes, a second run that reads nothing, a corrupt shard (exit 1, nothing kept), and
 * bad input (exit 2) and a too-small cache (exit 1) before any shard is read.
 */
@ExtendWith(StowageStackExtension.class)
class DatasetFetchCommandTest {
    private static StackEndpoints stack;
    private static S3ObjectStore store;
    @TempDir
    Path work;
    private String savedHome;
    private final String dataset = "fetch-" + UUID.randomUUID().toString().substring(0, 8);
    private final Map<String, byte[]> members = new LinkedHashMap<>();
    private DatasetManifest manifest;

    @BeforeAll
    static void connect(StackEndpoints endpoints) {
        stack = endpoints;
        store = new S3ObjectStore(new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(),
                stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey()), UploadTuning.defaults());
    }

    @AfterAll
    static void close() {
        store.close();
    }

    @BeforeEach
    void sessionAndDataset() throws IOException {
        Path home = work.resolve("home");
        new Session(stack, Map.of(), work.resolve("staging").toString(), List.of(), ProcessHandle.current().pid())
                .writeTo(home.resolve("session.json"));
        savedHome = System.getProperty("stowage.home");
        System.setProperty("stowage.home", home.toString());
        List<ShardEntry> shards = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            Map<String, byte[]> inShard = new LinkedHashMap<>();
            for (int m = 0; m < 4; m++) {
                byte[] content = new byte[50_000 + 1_000 * s + m];
                new java.util.Random(31L * s + m).nextBytes(content);
                inShard.put("clips/s" + s + "/" + m + ".wav", content);
            }
            members.putAll(inShard);
            shards.add(upload(s, inShard));
        }
        manifest = new DatasetManifest(DatasetManifest.FORMAT, dataset, "r1", "CC0-1.0", "test", members.size(),
                members.values().stream().mapToLong(b -> b.length).sum(), shards);
        put(ObjectKeys.datasetManifest(dataset, "r1"), EventCodec.mapper().writeValueAsBytes(manifest));
    }

    @AfterEach
    void restoreHome() {
        if (savedHome == null) {
            System.clearProperty("stowage.home");
        } else {
            System.setProperty("stowage.home", savedHome);
        }
    }

    @Test
    void fetchesAndExtractsEveryShardThenASecondRunReadsNothing() throws IOException {
        Path to = work.resolve("hot");
        Result first = run("dataset", "fetch", "--dataset", dataset, "--revision", "r1", "--to", to.toString(),
                "--extract", "--json", "--parallel", "2");

        assertThat(first.code).isZero();
        long shardBytes = manifest.shards().stream().mapToLong(ShardEntry::bytes).sum();
        assertThat(first.json.get("shards").asInt()).isEqualTo(3);
        assertThat(first.json.get("fetched").asInt()).isEqualTo(3);
        assertThat(first.json.get("cached").asInt()).isZero();
        assertThat(first.json.get("shardBytes").asLong()).isEqualTo(shardBytes);
        assertThat(first.json.get("bytesDownloaded").asLong()).isEqualTo(shardBytes);
        assertThat(first.json.get("extractedMembers").asLong()).isEqualTo(12);
        assertThat(first.json.get("failures")).isEmpty();
        assertThat(first.json.get("complete").asBoolean()).isTrue();
        assertThat(first.json.get("dir").asText()).isEqualTo(to.toString());
        for (ShardEntry shard : manifest.shards()) {
            assertThat(Sha256.of(to.resolve("shards/" + shard.sha256() + ".tar.zst"))).isEqualTo(shard.sha256());
        }
        for (Map.Entry<String, byte[]> m : members.entrySet()) {
            assertThat(Files.readAllBytes(to.resolve("members").resolve(m.getKey()))).as(m.getKey()).isEqualTo(m.getValue());
        }

        Result second = run("dataset", "fetch", "--dataset", dataset, "--revision", "r1", "--to", to.toString(), "--json");
        assertThat(second.code).isZero();
        assertThat(second.json.get("cached").asInt()).isEqualTo(3);
        assertThat(second.json.get("fetched").asInt()).isZero();
        assertThat(second.json.get("bytesDownloaded").asLong()).isZero();
    }

    @Test
    void aCorruptShardExitsOneReportsTheShardAndKeepsNothingOfIt() throws IOException {
        ShardEntry bad = manifest.shards().get(2);
        byte[] wrong = new byte[(int) bad.bytes()];
        put(bad.key(), wrong);
        Path to = work.resolve("hot");

        Result result = run("dataset", "fetch", "--dataset", dataset, "--revision", "r1", "--to", to.toString(), "--json");

        assertThat(result.code).isEqualTo(1);
        assertThat(result.json.get("fetched").asInt()).isEqualTo(2);
        assertThat(result.json.get("complete").asBoolean()).isFalse();
        JsonNode failure = result.json.get("failures").get(0);
        assertThat(failure.get("index").asInt()).isEqualTo(2);
        assertThat(failure.get("attempts").asInt()).isEqualTo(2);
        assertThat(failure.get("reason").asText()).isEqualTo("SHA-256 mismatch: got " + Sha256.of(wrong)
                + ", the dataset manifest names " + bad.sha256());
        assertThat(to.resolve("shards/" + bad.sha256() + ".tar.zst")).doesNotExist();
        try (var partial = Files.list(to.resolve(".stowage-cache/partial"))) {
            assertThat(partial).isEmpty();
        }
    }

    @Test
    void badInputIsExitTwoAndATooSmallCacheExitOneBeforeAnyShard() {
        Path to = work.resolve("hot");
        assertThat(run("dataset", "fetch", "--dataset", "a b", "--revision", "r1", "--to", to.toString()).code).isEqualTo(2);
        assertThat(run("dataset", "fetch", "--dataset", dataset, "--revision", "r1", "--to", to.toString(),
                "--parallel", "0").code).isEqualTo(2);
        assertThat(run("dataset", "fetch", "--dataset", dataset, "--revision", "r1", "--to", to.toString(),
                "--cache-limit", "lots").code).isEqualTo(2);
        assertThat(run("dataset", "fetch", "--dataset", dataset, "--revision", "r1", "--to", to.toString(),
                "--cache-limit", "1K").code).isEqualTo(1);
        assertThat(to.resolve("shards")).isEmptyDirectory();
        assertThat(run("dataset", "fetch", "--dataset", "never-stored", "--revision", "r1", "--to", to.toString()).code)
                .isEqualTo(1);
    }

    private record Result(int code, JsonNode json) {
    }

    private static Result run(String... args) {
        PrintStream saved = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            code = StowageCli.execute(args);
        } finally {
            System.setOut(saved);
        }
        String out = captured.toString(StandardCharsets.UTF_8).trim();
        try {
            return new Result(code, out.startsWith("{") ? EventCodec.mapper().readTree(out) : null);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + out, e);
        }
    }

    private ShardEntry upload(int index, Map<String, byte[]> inShard) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringBuilder jsonl = new StringBuilder();
        try (ZstdOutputStream zstd = new ZstdOutputStream(bytes, 3);
             TarArchiveOutputStream tar = new TarArchiveOutputStream(zstd, StandardCharsets.UTF_8.name())) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Map.Entry<String, byte[]> m : inShard.entrySet()) {
                TarArchiveEntry entry = new TarArchiveEntry(m.getKey());
                entry.setSize(m.getValue().length);
                tar.putArchiveEntry(entry);
                tar.write(m.getValue());
                tar.closeArchiveEntry();
                jsonl.append(EventCodec.mapper().writeValueAsString(new io.stowage.events.manifest.MemberEntry(
                        m.getKey(), m.getValue().length, Sha256.of(m.getValue())))).append('\n');
            }
        }
        byte[] shard = bytes.toByteArray();
        byte[] list = jsonl.toString().getBytes(StandardCharsets.UTF_8);
        String sha = Sha256.of(shard);
        put(ObjectKeys.shard(dataset, "r1", sha), shard);
        put(ObjectKeys.members(dataset, "r1", sha), list);
        return new ShardEntry(index, ObjectKeys.shard(dataset, "r1", sha), shard.length, sha,
                ObjectKeys.members(dataset, "r1", sha), list.length, Sha256.of(list), inShard.size());
    }

    private void put(String key, byte[] content) throws IOException {
        Path file = Files.createTempFile(work, "put", ".bin");
        Files.write(file, content);
        store.put(key, file, content.length, Sha256.of(content), Map.of());
        Files.delete(file);
    }
}
