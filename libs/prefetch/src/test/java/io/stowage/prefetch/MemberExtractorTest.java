package io.stowage.prefetch;

import io.stowage.events.manifest.MemberEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link MemberExtractor} on shards built here: exact bytes out, and every way a shard can disagree with its manifest. */
class MemberExtractorTest {
    @TempDir
    Path work;

    private Path shard(Map<String, byte[]> members) throws IOException {
        Path file = work.resolve("shard.tar.zst");
        Files.write(file, TestShards.tarZst(members));
        return file;
    }

    private static Map<String, byte[]> members() {
        Map<String, byte[]> members = new LinkedHashMap<>();
        members.put("train/235342 Track 2.0 (Clean Version).mp3", "mp3 bytes".getBytes(StandardCharsets.UTF_8));
        members.put("train/naïve café/22.05.png", new byte[]{(byte) 0x89, 'P', 'N', 'G'});
        members.put("empty.txt", new byte[0]);
        members.put("d/" + "x".repeat(150) + ".bin", new byte[70_000]);
        return members;
    }

    @Test
    void everyMemberIsWrittenWithItsBytes() throws IOException {
        Map<String, byte[]> members = members();
        Path out = work.resolve("out");
        long n = MemberExtractor.extract(shard(members), TestShards.manifest(members), out);
        assertThat(n).isEqualTo(4);
        for (Map.Entry<String, byte[]> m : members.entrySet()) {
            assertThat(Files.readAllBytes(out.resolve(m.getKey()))).isEqualTo(m.getValue());
        }
        assertThat(out.resolve(".stowage-extract")).doesNotExist();
    }

    @Test
    void aMemberWithAnotherHashIsRefusedAndNotWritten() throws IOException {
        Map<String, byte[]> members = members();
        List<MemberEntry> manifest = new ArrayList<>(TestShards.manifest(members));
        MemberEntry png = manifest.get(1);
        String wrongSha = "0".repeat(64);
        manifest.set(1, new MemberEntry(png.path(), png.bytes(), wrongSha));
        Path out = work.resolve("out");
        assertThatThrownBy(() -> MemberExtractor.extract(shard(members), manifest, out))
                .isInstanceOf(MemberMismatchException.class)
                .hasMessage("shard.tar.zst: member train/naïve café/22.05.png has 4 bytes, SHA-256 " + png.sha256()
                        + "; the member manifest names 4 bytes, " + wrongSha);
        assertThat(out.resolve("train/naïve café/22.05.png")).doesNotExist();
        assertThat(out.resolve(".stowage-extract")).doesNotExist();
    }

    @Test
    void aMemberMissingFromTheShardOrFromTheManifestIsNamed() throws IOException {
        Map<String, byte[]> members = members();
        List<MemberEntry> manifest = new ArrayList<>(TestShards.manifest(members));
        manifest.add(new MemberEntry("lost.wav", 3, "a".repeat(64)));
        assertThatThrownBy(() -> MemberExtractor.extract(shard(members), manifest, work.resolve("a")))
                .hasMessage("shard.tar.zst: member lost.wav of the member manifest is not in the shard");

        List<MemberEntry> shorter = TestShards.manifest(members).subList(1, 4);
        assertThatThrownBy(() -> MemberExtractor.extract(shard(members), shorter, work.resolve("b")))
                .hasMessage("shard.tar.zst: member train/235342 Track 2.0 (Clean Version).mp3 is not a regular file"
                        + " of its member manifest");
    }

    @ParameterizedTest
    @ValueSource(strings = {"../escape.txt", "/abs.txt", "a/../../y.txt", "..././z.txt", "./a", "a//b", "a\\b"})
    void aNameTheShardFormatRefusesIsNeverWritten(String name) throws IOException {
        Map<String, byte[]> members = new LinkedHashMap<>();
        members.put(name, new byte[]{2});
        members.put("0001.txt", new byte[]{1});
        Path out = work.resolve("deep/o");
        List<MemberEntry> cleanManifest = List.of(new MemberEntry("x.txt", 1, TestShards.manifest(members).get(0).sha256()),
                TestShards.manifest(members).get(1));

        assertThatThrownBy(() -> MemberExtractor.extract(shard(members), cleanManifest, out))
                .isInstanceOf(MemberMismatchException.class)
                .hasMessageStartingWith("shard.tar.zst: member name \"" + name + "\" ")
                .hasMessageEndingWith("; nothing was written under it");
        assertThatThrownBy(() -> MemberExtractor.extract(shard(members), TestShards.manifest(members), out))
                .isInstanceOf(MemberMismatchException.class)
                .hasMessageStartingWith("shard.tar.zst: member manifest path " + name + " ");
        try (var files = Files.walk(work)) {
            assertThat(files.filter(Files::isRegularFile).map(p -> work.relativize(p).toString()))
                    .containsExactly("shard.tar.zst");
        }
    }

    @Test
    void aShardOfSeveralConcatenatedZstdFramesIsRead() throws IOException {
        Map<String, byte[]> members = members();
        byte[] tar = com.github.luben.zstd.Zstd.decompress(TestShards.tarZst(members), 1 << 20);
        int cut = 1_234;
        byte[] first = com.github.luben.zstd.Zstd.compress(Arrays.copyOfRange(tar, 0, cut), 3);
        byte[] second = com.github.luben.zstd.Zstd.compress(Arrays.copyOfRange(tar, cut, tar.length), 19);
        byte[] frames = new byte[first.length + second.length];
        System.arraycopy(first, 0, frames, 0, first.length);
        System.arraycopy(second, 0, frames, first.length, second.length);
        Path file = work.resolve("frames.tar.zst");
        Files.write(file, frames);
        Path out = work.resolve("f");
        assertThat(MemberExtractor.extract(file, TestShards.manifest(members), out)).isEqualTo(4);
        assertThat(Files.readAllBytes(out.resolve("d/" + "x".repeat(150) + ".bin"))).isEqualTo(new byte[70_000]);
    }

    @Test
    void aTruncatedShardIsAnErrorNeverAShorterTar() throws IOException {
        Map<String, byte[]> members = members();
        byte[] whole = TestShards.tarZst(members);
        Path file = work.resolve("shard.tar.zst");
        Files.write(file, Arrays.copyOf(whole, whole.length - 40));
        assertThatThrownBy(() -> MemberExtractor.extract(file, TestShards.manifest(members), work.resolve("t")))
                .isInstanceOf(MemberMismatchException.class)
                .hasMessageStartingWith("shard.tar.zst: ");
    }

    /**
     * A shard cut right after a member's data, on a tar record boundary (10,240 bytes): Commons Compress alone reads that as a complete
     * tar of one member, which matches a one-member manifest. The end-of-archive marker is missing, so it is refused.
     */
    @Test
    void aShardCutOnATarBlockBoundaryIsTruncatedEvenWhenItsMembersMatch() throws IOException {
        Map<String, byte[]> members = new LinkedHashMap<>();
        members.put("a.bin", new byte[9_728]);
        members.put("b.bin", new byte[10]);
        byte[] tar;
        try (var in = new com.github.luben.zstd.ZstdInputStream(new java.io.ByteArrayInputStream(TestShards.tarZst(members)))) {
            tar = in.readAllBytes();
        }
        byte[] cut = Arrays.copyOf(tar, 512 + 9_728); // one 10,240-byte tar record: header and data
        Path file = work.resolve("shard.tar.zst");
        Files.write(file, com.github.luben.zstd.Zstd.compress(cut, 3));
        Map<String, byte[]> first = new LinkedHashMap<>();
        first.put("a.bin", members.get("a.bin"));
        assertThatThrownBy(() -> MemberExtractor.extract(file, TestShards.manifest(first), work.resolve("c")))
                .isInstanceOf(MemberMismatchException.class)
                .hasMessageStartingWith("shard.tar.zst: unreadable or truncated: ");
    }
}
