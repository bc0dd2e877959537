package io.stowage.shardformat.write;

import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * GNU tar, Python's {@code tarfile} and our member manifest agree byte for byte on every name, size
 * and SHA-256 of a shard built from the awkward names a real corpus has: longer than 100 bytes,
 * non-ASCII (UTF-8, 2-, 3- and 4-byte sequences), NFC and NFD "é" side by side, 0-byte files, a path
 * 60 directories deep. The expected values come from the files the test wrote, not from our writer.
 */
class ToolAgreementTest {
    static final long EPOCH = 1_700_000_000L;
    static final String NFC = "caf\u00e9.txt";
    static final String NFD = "cafe\u0301.txt";

    @TempDir
    static Path tmp;
    static Map<String, byte[]> files;
    static BuiltShard shard;

    @BeforeAll
    static void buildTheShard() throws IOException {
        files = new TreeMap<>(Comparator.naturalOrder());
        Random random = new Random(42);
        put(random, "ascii-exactly-100/" + "a".repeat(100 - 18), 100);
        put(random, "ascii-101/" + "b".repeat(101 - 10), 101);
        put(random, "long/" + "n".repeat(150) + ".wav", 4096);
        put(random, "sprache/" + "ü".repeat(100) + ".txt", 777);
        put(random, "sprache/größe-ünïcödé-日本語.txt", 513);
        put(random, "music/emoji-\uD83C\uDFB5-note.flac", 2048);
        put(random, "music/235342 Track 2.0 (Clean Version).mp3", 1500);
        put(random, "names/" + NFC, 11);
        put(random, "names/" + NFD, 12);
        put(random, "empty/zero.bin", 0);
        put(random, "empty/ünï-zero.txt", 0);
        put(random, "blocks/exactly-512.bin", 512);
        put(random, "blocks/one.bin", 1);
        StringBuilder deep = new StringBuilder();
        for (int level = 0; level < 60; level++) {
            deep.append("level-").append(String.format("%02d", level)).append('/');
        }
        put(random, deep + "leaf.txt", 321);

        Path dir = Files.createDirectories(tmp.resolve("data"));
        for (var file : files.entrySet()) {
            Path path = dir.resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.write(path, file.getValue());
        }
        ShardPlan plan = new ShardPlanner(Long.MAX_VALUE).plan(new DatasetScanner().scan(dir)).get(0);
        shard = new ShardWriter(EPOCH).write(plan, Files.createDirectories(tmp.resolve("shards")));
    }

    private static void put(Random random, String name, int bytes) {
        byte[] content = new byte[bytes];
        random.nextBytes(content);
        files.put(name, content);
    }

    private static List<ExternalTar.Seen> expected() {
        return files.entrySet().stream()
                .map(f -> ExternalTar.Seen.of(f.getKey(), f.getValue().length, Sha256.of(f.getValue())))
                .toList();
    }

    @Test
    void theTreeHoldsWhatTheTestClaims() {
        assertThat(Normalizer.normalize(NFD, Normalizer.Form.NFC)).isEqualTo(NFC);
        assertThat(NFC.getBytes(StandardCharsets.UTF_8)).containsExactly(0x63, 0x61, 0x66, 0xc3, 0xa9, 0x2e, 0x74, 0x78, 0x74);
        assertThat(NFD.getBytes(StandardCharsets.UTF_8))
                .containsExactly(0x63, 0x61, 0x66, 0x65, 0xcc, 0x81, 0x2e, 0x74, 0x78, 0x74);
        assertThat(files.keySet()).anyMatch(n -> n.getBytes(StandardCharsets.UTF_8).length > 500)
                .anyMatch(n -> n.getBytes(StandardCharsets.UTF_8).length == 100)
                .anyMatch(n -> n.getBytes(StandardCharsets.UTF_8).length == 101);
        assertThat(files).hasSize(14);
    }

    @Test
    void theMemberManifestHasEveryNameSizeAndSha256OfTheFilesWritten() {
        assertThat(shard.entries().stream().map(e -> ExternalTar.Seen.of(e.path(), e.bytes(), e.sha256())).toList())
                .containsExactlyElementsOf(expected());
        assertThat(shard.entries()).extracting(MemberEntry::path).contains("names/" + NFC, "names/" + NFD);
    }

    @Test
    void gnuTarExtractsTheSameNamesSizesAndSha256s() throws Exception {
        assumeTrue(ExternalTar.program("tar").isPresent() && ExternalTar.program("zstd").isPresent(),
                "GNU tar or the zstd program is not installed; skipping the GNU tar agreement");

        assertThat(ExternalTar.gnuTar(shard.shard().path())).containsExactlyElementsOf(expected());
    }

    @Test
    void gnuTarListsNormalisedHeaders() throws Exception {
        assumeTrue(ExternalTar.program("tar").isPresent() && ExternalTar.program("zstd").isPresent(),
                "GNU tar or the zstd program is not installed; skipping the GNU tar listing");

        List<ExternalTar.Listed> listing = ExternalTar.gnuTarListing(shard.shard().path());

        assertThat(listing).extracting(ExternalTar.Listed::nameHex)
                .containsExactlyElementsOf(expected().stream().map(ExternalTar.Seen::nameHex).toList());
        assertThat(listing).extracting(ExternalTar.Listed::bytes)
                .containsExactlyElementsOf(expected().stream().map(ExternalTar.Seen::bytes).toList());
        assertThat(listing).allSatisfy(line -> {
            assertThat(line.mode()).isEqualTo("-rw-r--r--");
            assertThat(line.owner()).isEqualTo("0/0");
            assertThat(line.mtime()).isEqualTo("2023-11-14 22:13:20");
        });
    }

    @Test
    void pythonTarfileReadsTheSameNamesSizesSha256sAndHeaders() throws Exception {
        assumeTrue(ExternalTar.program("python3").isPresent() && ExternalTar.program("zstd").isPresent(),
                "python3 or the zstd program is not installed; skipping the Python tarfile agreement");

        List<String> lines = ExternalTar.pythonLines(shard.shard().path());

        assertThat(ExternalTar.python(lines)).containsExactlyElementsOf(expected());
        assertThat(lines).allSatisfy(line -> assertThat(line).startsWith("0 100644 0 0 '' '' " + EPOCH + " "));
    }
}
