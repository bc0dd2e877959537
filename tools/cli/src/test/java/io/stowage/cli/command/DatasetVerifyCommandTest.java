package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.luben.zstd.Zstd;
import io.stowage.cli.StowageCli;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.DatasetManifest;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.events.manifest.ShardEntry;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.store.s3.UploadTuning;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code stowage dataset verify} run in-process through {@link StowageCli#execute}: local shards in a directory, and
 * shards read back from the real S3Proxy of the embedded stack (written there by the store module's writer).
 */
@ExtendWith(StowageStackExtension.class)
class DatasetVerifyCommandTest {
    private static S3ObjectStore writer;
    private static Path home;

    @TempDir
    Path tmp;

    @BeforeAll
    static void open(StackEndpoints stack) throws IOException {
        writer = new S3ObjectStore(new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(),
                stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey()), UploadTuning.defaults());
        home = Files.createTempDirectory("stowage-verify-home-");
        new Session(stack, Map.of(), home.resolve("staging").toString(), List.of(), ProcessHandle.current().pid())
                .writeTo(new StowageHome(home).session());
        System.setProperty("stowage.home", home.toString());
    }

    @AfterAll
    static void close() {
        System.clearProperty("stowage.home");
        writer.close();
    }

    @Test
    void goodLocalShardsExitZeroWithEveryShardAndMemberCounted() throws IOException {
        Shard one = shard(members(1));
        Shard two = shard(members(2));
        Path dir = Files.createDirectories(tmp.resolve("datasets/speech/r1/shards"));
        one.writeTo(dir);
        two.writeTo(dir);

        Run run = cli("dataset", "verify", "--path", tmp.toString(), "--json");

        assertThat(run.exit).as(run.err).isZero();
        JsonNode report = EventCodec.mapper().readTree(run.out);
        assertThat(report.path("shardsOk").asInt()).isEqualTo(2);
        assertThat(report.path("shardsFailed").asInt()).isZero();
        assertThat(report.path("memberBytes").asLong()).isEqualTo(one.memberBytes() + two.memberBytes());
        List<String> shas = List.of(one.sha256, two.sha256).stream().sorted().toList();
        assertThat(report.path("shards").findValuesAsText("sha256")).containsExactlyElementsOf(shas);
        assertThat(report.path("shards").get(0).path("members").asInt()).isEqualTo(3);
    }

    @Test
    void aTruncatedLocalShardAndAChangedMemberExitOneNamingShardAndMember() throws IOException {
        Shard good = shard(members(3));
        Shard cut = shard(members(4));
        Shard changed = shard(members(5));
        good.writeTo(tmp);
        Files.write(tmp.resolve(cut.sha256 + ".tar.zst"), Arrays.copyOf(cut.bytes, cut.bytes.length - 9));
        Files.write(tmp.resolve(cut.sha256 + ".members.jsonl"), cut.manifestBytes());
        changed.writeTo(tmp);
        List<MemberEntry> wrong = new ArrayList<>(changed.manifest);
        wrong.set(1, new MemberEntry(wrong.get(1).path(), wrong.get(1).bytes(), "f".repeat(64)));
        Files.write(tmp.resolve(changed.sha256 + ".members.jsonl"), jsonLines(wrong));

        Run run = cli("dataset", "verify", "--path", tmp.toString());

        assertThat(run.exit).isEqualTo(1);
        assertThat(run.out).contains("OK     " + tmp.resolve(good.sha256 + ".tar.zst") + "  3 members, " + good.memberBytes() + " bytes");
        assertThat(run.out).contains("FAILED " + tmp.resolve(cut.sha256 + ".tar.zst"));
        assertThat(run.out).containsPattern("\n {9}TRUNCATED( [^:]+)?: zstd: Truncated source\n");
        assertThat(run.out).contains("FAILED " + tmp.resolve(changed.sha256 + ".tar.zst") + "  3 members, " + changed.memberBytes() + " bytes");
        assertThat(run.out).contains("SHA256_MISMATCH " + wrong.get(1).path() + ": expected sha256 " + "f".repeat(64)
                + ", read " + changed.manifest.get(1).sha256());
        assertThat(run.out).contains(tmp + ": 1 of 3 shards good");
        assertThat(run.err).contains("stowage: 2 of 3 shards failed; first: ");
    }

    @Test
    void aCraftedShardWhoseNamesLeaveTheDirectoryIsNotGoodEvenWhenItsManifestAgrees() throws IOException {
        Map<String, byte[]> members = new LinkedHashMap<>();
        for (String name : List.of("../x.txt", "/abs.txt", "a/../../y.txt", "..././z.txt")) {
            members.put(name, ("payload of " + name + "\n").getBytes(StandardCharsets.UTF_8));
        }
        Shard crafted = shard(members);
        crafted.writeTo(tmp);
        Path shardFile = tmp.resolve(crafted.sha256 + ".tar.zst");

        Run run = cli("dataset", "verify", "--path", shardFile.toString(), "--json");

        assertThat(run.exit).isEqualTo(1);
        JsonNode problem = EventCodec.mapper().readTree(run.out).path("shards").get(0).path("problems").get(0);
        assertThat(problem.path("kind").asText()).isEqualTo("MEMBER_MANIFEST_INVALID");
        assertThat(problem.path("detail").asText()).endsWith("line 1: path \"../x.txt\" has a .. segment");

        for (String name : members.keySet()) {
            Map<String, byte[]> one = Map.of(name, members.get(name));
            Shard single = shard(one);
            Path dir = Files.createDirectories(tmp.resolve("one-" + single.sha256.substring(0, 8)));
            Files.write(dir.resolve(single.sha256 + ".tar.zst"), single.bytes);
            Files.write(dir.resolve(single.sha256 + ".members.jsonl"),
                    jsonLines(List.of(new MemberEntry("clean.txt", one.get(name).length, single.manifest.get(0).sha256()))));
            Run alone = cli("dataset", "verify", "--path", dir.toString());
            assertThat(alone.exit).as(name).isEqualTo(1);
            assertThat(alone.out).as(name).contains("UNSAFE_MEMBER_NAME " + name + ": tar member name ");
        }
    }

    @Test
    void aShardWithoutItsMemberManifestFailsAndBadOptionsAreUsageErrors() throws IOException {
        Shard lonely = shard(members(6));
        Files.write(tmp.resolve(lonely.sha256 + ".tar.zst"), lonely.bytes);
        Run run = cli("dataset", "verify", "--path", tmp.resolve(lonely.sha256 + ".tar.zst").toString(), "--json");
        assertThat(run.exit).isEqualTo(1);
        JsonNode problem = EventCodec.mapper().readTree(run.out).path("shards").get(0).path("problems").get(0);
        assertThat(problem.path("kind").asText()).isEqualTo("MEMBER_MANIFEST_MISSING");
        assertThat(problem.path("detail").asText()).contains(lonely.sha256 + ".members.jsonl");

        assertThat(cli("dataset", "verify").exit).isEqualTo(2);
        assertThat(cli("dataset", "verify", "--dataset", "d").exit).isEqualTo(2);
        assertThat(cli("dataset", "verify", "--path", tmp.resolve("nothing-here").toString()).exit).isEqualTo(2);
    }

    @Test
    void shardsReadFromTheStoreAreCheckedAgainstTheDatasetManifest() throws IOException {
        String revision = "r-" + UUID.randomUUID().toString().substring(0, 8);
        Shard one = shard(members(7));
        Shard two = shard(members(8));
        publish("speech", revision, List.of(one, two), Map.of());

        Run run = cli("dataset", "verify", "--dataset", "speech", "--revision", revision, "--json");

        assertThat(run.exit).as(run.err).isZero();
        JsonNode report = EventCodec.mapper().readTree(run.out);
        assertThat(report.path("source").asText()).isEqualTo("speech/" + revision);
        assertThat(report.path("shards").findValuesAsText("shard")).containsExactly(
                ObjectKeys.shard("speech", revision, one.sha256), ObjectKeys.shard("speech", revision, two.sha256));
        assertThat(report.path("shards").findValuesAsText("sha256")).containsExactly(one.sha256, two.sha256);
        assertThat(report.path("shards").get(1).path("shardBytes").asLong()).isEqualTo(two.bytes.length);
        assertThat(report.path("memberBytes").asLong()).isEqualTo(one.memberBytes() + two.memberBytes());
    }

    @Test
    void aTruncatedShardInTheStoreExitsOneNamingIt() throws IOException {
        String revision = "r-" + UUID.randomUUID().toString().substring(0, 8);
        Shard one = shard(members(9));
        Shard two = shard(members(10));
        // the object at the second shard's key lost its last 100 bytes
        publish("speech", revision, List.of(one, two), Map.of(two.sha256, Arrays.copyOf(two.bytes, two.bytes.length - 100)));

        Run run = cli("dataset", "verify", "--dataset", "speech", "--revision", revision, "--json");

        assertThat(run.exit).isEqualTo(1);
        JsonNode shards = EventCodec.mapper().readTree(run.out).path("shards");
        assertThat(shards.get(0).path("ok").asBoolean()).isTrue();
        assertThat(shards.get(1).path("ok").asBoolean()).isFalse();
        assertThat(shards.get(1).path("problems").get(0).path("kind").asText()).isEqualTo("TRUNCATED");
        assertThat(run.err).startsWith("stowage: 1 of 2 shards failed; first: " + ObjectKeys.shard("speech", revision, two.sha256)
                + ": TRUNCATED: ");

        Run missing = cli("dataset", "verify", "--dataset", "speech", "--revision", "never-published");
        assertThat(missing.exit).isEqualTo(1);
        assertThat(missing.err.strip()).isEqualTo("stowage: no dataset speech/never-published in the primary store (no "
                + ObjectKeys.datasetManifest("speech", "never-published") + ")");
    }

    @Test
    void aStagedRevisionIsCheckedAgainstItsDatasetManifestAndAMissingShardIsNamed() throws IOException {
        Shard one = shard(members(11));
        Shard two = shard(members(12));
        Path revisionDir = tmp.resolve("staging/datasets/speech/r9");
        Path shards = Files.createDirectories(revisionDir.resolve("shards"));
        one.writeTo(shards);
        two.writeTo(shards);
        Files.write(revisionDir.resolve("manifest.json"), EventCodec.mapper().writeValueAsBytes(manifest("speech", "r9", List.of(one, two))));

        Run good = cli("dataset", "verify", "--path", revisionDir.toString(), "--json");
        assertThat(good.exit).as(good.err).isZero();
        assertThat(EventCodec.mapper().readTree(good.out).path("shards").findValuesAsText("shard")).containsExactly(
                shards.resolve(one.sha256 + ".tar.zst").toString(), shards.resolve(two.sha256 + ".tar.zst").toString());

        Files.delete(shards.resolve(two.sha256 + ".tar.zst"));
        Files.write(shards.resolve(one.sha256 + ".members.jsonl"), "\n".getBytes(StandardCharsets.UTF_8), java.nio.file.StandardOpenOption.APPEND);
        Run bad = cli("dataset", "verify", "--path", revisionDir.toString(), "--json");
        assertThat(bad.exit).isEqualTo(1);
        JsonNode lines = EventCodec.mapper().readTree(bad.out).path("shards");
        assertThat(lines.get(0).path("problems").get(0).path("kind").asText()).isEqualTo("MEMBER_MANIFEST_SHA256_MISMATCH");
        assertThat(lines.get(1).path("problems").get(0).path("kind").asText()).isEqualTo("SHARD_MISSING");
        assertThat(lines.get(1).path("problems").get(0).path("detail").asText()).contains(two.sha256 + ".tar.zst");
    }

    private static DatasetManifest manifest(String dataset, String revision, List<Shard> shards) throws IOException {
        List<ShardEntry> entries = new ArrayList<>();
        for (int i = 0; i < shards.size(); i++) {
            Shard shard = shards.get(i);
            byte[] members = shard.manifestBytes();
            entries.add(new ShardEntry(i, ObjectKeys.shard(dataset, revision, shard.sha256), shard.bytes.length, shard.sha256,
                    ObjectKeys.members(dataset, revision, shard.sha256), members.length, Sha256.of(members), shard.manifest.size()));
        }
        return new DatasetManifest(DatasetManifest.FORMAT, dataset, revision, null, null,
                shards.stream().mapToInt(s -> s.manifest.size()).sum(), shards.stream().mapToLong(Shard::memberBytes).sum(), entries);
    }

    private void publish(String dataset, String revision, List<Shard> shards, Map<String, byte[]> replaced) throws IOException {
        for (Shard shard : shards) {
            put(ObjectKeys.shard(dataset, revision, shard.sha256), replaced.getOrDefault(shard.sha256, shard.bytes));
            put(ObjectKeys.members(dataset, revision, shard.sha256), shard.manifestBytes());
        }
        put(ObjectKeys.datasetManifest(dataset, revision), EventCodec.mapper().writeValueAsBytes(manifest(dataset, revision, shards)));
    }

    private void put(String key, byte[] bytes) throws IOException {
        Path file = Files.write(tmp.resolve("upload-" + UUID.randomUUID()), bytes);
        writer.put(key, file, bytes.length, Sha256.of(bytes), Map.of());
    }

    private static Map<String, byte[]> members(int seed) {
        Random random = new Random(seed);
        Map<String, byte[]> members = new LinkedHashMap<>();
        byte[] audio = new byte[20_000 + seed];
        random.nextBytes(audio);
        members.put("clips/" + seed + "/0001.wav", audio);
        members.put("clips/" + seed + "/0001.txt", ("transcript " + seed + "\n").repeat(50).getBytes(StandardCharsets.UTF_8));
        members.put("clips/" + seed + "/naïve é.json", "{}".getBytes(StandardCharsets.UTF_8));
        return members;
    }

    /** A shard written as the shard builder writes it: PAX tar (UTF-8, normalised headers), zstd level 3. */
    private static Shard shard(Map<String, byte[]> members) throws IOException {
        ByteArrayOutputStream tarBytes = new ByteArrayOutputStream();
        List<MemberEntry> manifest = new ArrayList<>();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(tarBytes, "UTF-8")) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            tar.setAddPaxHeadersForNonAsciiNames(true);
            for (Map.Entry<String, byte[]> member : members.entrySet()) {
                TarArchiveEntry entry = new TarArchiveEntry(member.getKey(), true);
                entry.setSize(member.getValue().length);
                entry.setLastModifiedTime(FileTime.from(Instant.EPOCH));
                tar.putArchiveEntry(entry);
                tar.write(member.getValue());
                tar.closeArchiveEntry();
                manifest.add(new MemberEntry(member.getKey(), member.getValue().length, Sha256.of(member.getValue())));
            }
            tar.finish();
        }
        byte[] bytes = Zstd.compress(tarBytes.toByteArray(), 3);
        return new Shard(bytes, Sha256.of(bytes), manifest);
    }

    private static byte[] jsonLines(List<MemberEntry> entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (MemberEntry entry : entries) {
            out.write(EventCodec.mapper().writeValueAsBytes(entry));
            out.write('\n');
        }
        return out.toByteArray();
    }

    private record Shard(byte[] bytes, String sha256, List<MemberEntry> manifest) {
        long memberBytes() {
            return manifest.stream().mapToLong(MemberEntry::bytes).sum();
        }

        byte[] manifestBytes() throws IOException {
            return jsonLines(manifest);
        }

        void writeTo(Path dir) throws IOException {
            Files.write(dir.resolve(sha256 + ".tar.zst"), bytes);
            Files.write(dir.resolve(sha256 + ".members.jsonl"), manifestBytes());
        }
    }

    private record Run(int exit, String out, String err) {
    }

    private static synchronized Run cli(String... args) {
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int exit = StowageCli.execute(args);
            return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
    }
}
