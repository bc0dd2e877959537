package io.stowage.shardformat.write;

import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.DatasetManifest;
import io.stowage.events.manifest.MemberEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatasetSharderTest {
    static final String LONG_NAME = "deeply/nested/" + "x".repeat(120) + "/sample-000042.wav";
    static final String NON_ASCII = "sprache/größe-ünïcödé-日本語.txt";

    @TempDir
    Path tmp;

    /** A small dataset: random "audio", a 0-byte file, a >100-byte name and a non-ASCII name. */
    static Path dataset(Path dir, long seed) throws IOException {
        Random random = new Random(seed);
        write(dir, "audio/a-0001.wav", random, 40_000);
        write(dir, "audio/a-0002.wav", random, 70_000);
        write(dir, "audio/a-0003.wav", random, 10_000);
        write(dir, "empty.txt", random, 0);
        write(dir, LONG_NAME, random, 5_000);
        write(dir, NON_ASCII, random, 0);
        Files.writeString(dir.resolve(NON_ASCII), "Größe: 3 Wörter\n");
        return dir;
    }

    private static void write(Path dir, String name, Random random, int bytes) throws IOException {
        byte[] content = new byte[bytes];
        random.nextBytes(content);
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.write(file, content);
    }

    private SealedDataset shard(Path dir, Path staging, long target) throws IOException {
        return new DatasetSharder(new ShardWriter(0))
                .shard(new ShardRequest(dir, "speech", "r1", "CC-BY-SA-3.0", "test", target, staging));
    }

    @Test
    void roundTripGivesBackEveryMemberWithTheManifestedBytesAndSha256() throws IOException {
        Path dir = dataset(Files.createDirectories(tmp.resolve("data")), 1);
        SealedDataset sealed = shard(dir, tmp.resolve("staging"), 64 * 1024);

        assertThat(sealed.shards()).hasSizeGreaterThan(1);
        int files = 0;
        for (BuiltShard shard : sealed.shards()) {
            assertThat(shard.shard().path().getFileName()).hasToString(shard.shard().sha256() + ".tar.zst");
            assertThat(shard.members().path().getFileName()).hasToString(shard.shard().sha256() + ".members.jsonl");
            assertThat(Sha256.of(shard.shard().path())).isEqualTo(shard.shard().sha256());
            assertThat(Files.size(shard.shard().path())).isEqualTo(shard.shard().bytes());
            assertThat(Sha256.of(shard.members().path())).isEqualTo(shard.members().sha256());

            List<MemberEntry> manifest = ShardFiles.memberManifest(shard.members().path());
            assertThat(manifest).isEqualTo(shard.entries());
            Map<String, byte[]> members = ShardFiles.members(shard.shard().path());
            assertThat(members.keySet()).containsExactlyElementsOf(manifest.stream().map(MemberEntry::path).toList());
            for (MemberEntry entry : manifest) {
                byte[] original = Files.readAllBytes(dir.resolve(entry.path()));
                assertThat(members.get(entry.path())).isEqualTo(original);
                assertThat(entry.bytes()).isEqualTo(original.length);
                assertThat(entry.sha256()).isEqualTo(Sha256.of(original));
            }
            files += manifest.size();
        }
        assertThat(files).isEqualTo(6);
        assertThat(sealed.shards().stream().flatMap(s -> s.entries().stream()).map(MemberEntry::path))
                .contains(LONG_NAME, NON_ASCII, "empty.txt")
                .isSorted();
        assertThat(tmp.resolve("staging/datasets/speech/r1/shards")).isDirectoryNotContaining("glob:**.tmp");
    }

    @Test
    void writesTheDatasetManifestWithKeysAndTotals() throws IOException {
        Path dir = dataset(Files.createDirectories(tmp.resolve("data")), 2);
        SealedDataset sealed = shard(dir, tmp.resolve("staging"), 64 * 1024);

        Path manifestPath = tmp.resolve("staging/datasets/speech/r1/manifest.json");
        assertThat(sealed.manifestFile().path()).isEqualTo(manifestPath);
        assertThat(sealed.manifestFile().sha256()).isEqualTo(Sha256.of(manifestPath));
        DatasetManifest manifest = EventCodec.mapper().readValue(manifestPath.toFile(), DatasetManifest.class);
        assertThat(manifest).isEqualTo(sealed.manifest());
        assertThat(manifest.format()).isEqualTo("stowage.dataset.v1");
        assertThat(manifest.memberCount()).isEqualTo(6);
        assertThat(manifest.memberBytes()).isEqualTo(40_000 + 70_000 + 10_000 + 5_000
                + "Größe: 3 Wörter\n".getBytes(StandardCharsets.UTF_8).length);
        BuiltShard first = sealed.shards().get(0);
        assertThat(manifest.shards().get(0).key())
                .isEqualTo("datasets/speech/r1/shards/" + first.shard().sha256() + ".tar.zst");
        assertThat(manifest.shards().get(0).membersKey())
                .isEqualTo("datasets/speech/r1/shards/" + first.shard().sha256() + ".members.jsonl");
        assertThat(manifest.shards().get(0).membersSha256()).isEqualTo(first.members().sha256());
        assertThat(manifest.shards()).extracting(e -> e.index()).containsExactly(
                sealed.shards().stream().map(BuiltShard::index).toArray(Integer[]::new));
    }

    @Test
    void sameDirectoryGivesByteIdenticalShardsWhateverTheFileTimes() throws IOException {
        Path first = dataset(Files.createDirectories(tmp.resolve("one")), 3);
        Path second = dataset(Files.createDirectories(tmp.resolve("two")), 3);
        try (var files = Files.walk(second)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.setLastModifiedTime(file, FileTime.fromMillis(1_234_567_890_123L));
            }
        }

        SealedDataset a = shard(first, tmp.resolve("staging-a"), 64 * 1024);
        SealedDataset b = shard(second, tmp.resolve("staging-b"), 64 * 1024);

        List<String> shasA = a.shards().stream().map(s -> s.shard().sha256()).toList();
        assertThat(b.shards().stream().map(s -> s.shard().sha256()).toList()).isEqualTo(shasA);
        assertThat(b.manifestFile().sha256()).isEqualTo(a.manifestFile().sha256());
        for (BuiltShard shard : b.shards()) {
            assertThat(Sha256.of(shard.shard().path())).isEqualTo(shard.shard().sha256());
        }
    }

    @Test
    void refusesABadNameBeforeWritingAnything() throws IOException {
        Path dir = dataset(Files.createDirectories(tmp.resolve("data")), 4);
        Path staging = tmp.resolve("staging");

        assertThatThrownBy(() -> new DatasetSharder(new ShardWriter(0))
                .shard(new ShardRequest(dir, "speech", "r 1/..", null, "x", 1024, staging)))
                .isInstanceOf(DatasetInputException.class)
                .hasMessageContaining("revision 'r 1/..' is not a valid name");
        assertThat(staging).doesNotExist();
    }

    @Test
    void refusesAStagingDirectoryInsideTheDataset() throws IOException {
        Path dir = dataset(Files.createDirectories(tmp.resolve("data")), 5);

        assertThatThrownBy(() -> shard(dir, dir.resolve("staging"), 1024))
                .isInstanceOf(DatasetInputException.class)
                .hasMessageContaining("must not be inside the dataset directory");
        assertThat(dir.resolve("staging")).doesNotExist();
    }

    @Test
    void refusesSpecialFilesInOneErrorAndWritesNothing() throws Exception {
        Path dir = dataset(Files.createDirectories(tmp.resolve("data")), 6);
        Files.createSymbolicLink(dir.resolve("audio/link.wav"), dir.resolve("audio/a-0001.wav"));
        SpecialFiles.fifo(dir.resolve("fifo"));
        Path staging = tmp.resolve("staging");

        assertThatThrownBy(() -> shard(dir, staging, 64 * 1024))
                .isInstanceOf(DatasetInputException.class)
                .hasMessage("only regular files can be sharded; the dataset directory also holds: "
                        + dir.resolve("audio/link.wav") + " (symlink), " + dir.resolve("fifo") + " (FIFO)");
        assertThat(staging).doesNotExist();
    }

    @Test
    void refusesAWebDatasetKeyCollisionAndWritesNothing() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("data"));
        Files.writeString(dir.resolve("x.jpg"), "lower");
        Files.writeString(dir.resolve("x.JPG"), "upper");
        Path staging = tmp.resolve("staging");

        assertThatThrownBy(() -> shard(dir, staging, 64 * 1024))
                .isInstanceOf(DatasetInputException.class)
                .hasMessage("WebDataset sample key collision, compared case-insensitively:"
                        + " 'x.JPG' and 'x.jpg' (key 'x', extension 'jpg')");
        assertThat(staging).doesNotExist();
    }

    @Test
    void keepsEveryWebDatasetCaseAsItsOwnMemberWithItsExactName() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("data"));
        List<String> names = List.of("22.05.png", "235342 Track 2.0 (Clean Version).mp3", "a.b.jpeg", "a.b.txt",
                "train.v1/0001.jpg");
        for (String name : names) {
            Files.createDirectories(dir.resolve(name).getParent());
            Files.writeString(dir.resolve(name), "content of " + name);
        }

        SealedDataset sealed = shard(dir, tmp.resolve("staging"), 64 * 1024);

        assertThat(sealed.shards()).hasSize(1);
        Map<String, byte[]> members = ShardFiles.members(sealed.shards().get(0).shard().path());
        assertThat(members.keySet()).containsExactlyElementsOf(names);
        assertThat(members.get("235342 Track 2.0 (Clean Version).mp3"))
                .isEqualTo("content of 235342 Track 2.0 (Clean Version).mp3".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void namesDifferingOnlyInUnicodeNormalisationStayTwoMembers() throws IOException {
        String nfc = "caf\u00e9.txt";
        String nfd = "cafe\u0301.txt";
        assertThat(java.text.Normalizer.normalize(nfd, java.text.Normalizer.Form.NFC)).isEqualTo(nfc);
        Path dir = Files.createDirectories(tmp.resolve("data"));
        Files.writeString(dir.resolve(nfc), "composed");
        Files.writeString(dir.resolve(nfd), "decomposed");
        assertThat(dir).isDirectoryContaining(p -> p.getFileName().toString().equals(nfd));

        SealedDataset sealed = shard(dir, tmp.resolve("staging"), 64 * 1024);

        BuiltShard shard = sealed.shards().get(0);
        // "e" (U+0065) sorts before "\u00e9": the NFD name comes first
        assertThat(shard.entries()).extracting(MemberEntry::path).containsExactly(nfd, nfc);
        assertThat(shard.entries()).extracting(MemberEntry::sha256).containsExactly(
                Sha256.of("decomposed".getBytes(StandardCharsets.UTF_8)),
                Sha256.of("composed".getBytes(StandardCharsets.UTF_8)));
        Map<String, byte[]> members = ShardFiles.members(shard.shard().path());
        assertThat(members).hasSize(2);
        assertThat(members.get(nfc)).asString(StandardCharsets.UTF_8).isEqualTo("composed");
        assertThat(members.get(nfd)).asString(StandardCharsets.UTF_8).isEqualTo("decomposed");
        String manifest = Files.readString(shard.members().path(), StandardCharsets.UTF_8);
        assertThat(manifest).contains("\"path\":\"cafe\u0301.txt\"", "\"path\":\"caf\u00e9.txt\"");
    }
}
