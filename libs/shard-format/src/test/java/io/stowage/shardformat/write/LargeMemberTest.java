package io.stowage.shardformat.write;

import com.github.luben.zstd.ZstdInputStream;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A member of 8 GiB and more: the classic tar size field stops at 8,589,934,591 bytes (11 octal
 * digits), so the size must travel in a PAX {@code size} record. The input is a sparse file (the
 * disk is not filled) with a few marker bytes at the 8 GiB mark and at the end, so a reader that cut
 * the member short or wrapped its size would see another SHA-256. Excluded from the second
 * (ISO-8859-1) surefire run: names are not what it tests, and it reads 8 GiB several times.
 */
@Tag("large-input")
class LargeMemberTest {
    static final long EIGHT_GIB = 8L << 30;
    static final long BYTES = EIGHT_GIB + 4096 + 7;
    /** {@code sha256sum} (coreutils) of the file {@link #sparseFile} makes, computed outside Java. */
    static final String SHA256 = "bc9242c695aba3f271afb0cc7a780dd02057802062d1931bdd9a0e7cd7de1883";
    static final byte[] SMALL = "beside the big one\n".getBytes(StandardCharsets.UTF_8);

    @TempDir
    static Path tmp;
    static BuiltShard shard;

    @BeforeAll
    static void buildTheShard() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("data/big"));
        sparseFile(dir.resolve("huge.bin"));
        Files.write(dir.resolve("small.txt"), SMALL);
        ShardPlan plan = new ShardPlanner(Long.MAX_VALUE).plan(new DatasetScanner().scan(tmp.resolve("data"))).get(0);
        shard = new ShardWriter(0).write(plan, Files.createDirectories(tmp.resolve("shards")));
    }

    /** {@code BYTES} bytes, all zero except "8 GiB mark" at offset 8 GiB and "tail!\n\1" as the last 7. */
    static void sparseFile(Path file) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(BYTES);
            raf.seek(EIGHT_GIB);
            raf.write("8 GiB mark".getBytes(StandardCharsets.US_ASCII));
            raf.seek(BYTES - 7);
            raf.write(new byte[] {'t', 'a', 'i', 'l', '!', '\n', 1});
        }
    }

    @Test
    void theMemberManifestHasTheExactSizeAndSha256() {
        assertThat(shard.entries()).containsExactly(
                new MemberEntry("big/huge.bin", 8_589_938_695L, SHA256),
                new MemberEntry("big/small.txt", SMALL.length, Sha256.of(SMALL)));
    }

    @Test
    void theSizeTravelsInAPaxRecordAndTheClassicFieldIsNotOverflowed() throws IOException {
        byte[] head;
        try (InputStream in = new ZstdInputStream(Files.newInputStream(shard.shard().path()))) {
            head = in.readNBytes(1024);
        }
        // first record: the PAX extended header of big/huge.bin ('x'); its data (second record) holds the size
        assertThat((char) head[156]).isEqualTo('x');
        String pax = new String(head, 512, 512, StandardCharsets.US_ASCII);
        assertThat(pax).startsWith("19 size=8589938695\n");
    }

    @Test
    void gnuTarListsTheExactSize() throws Exception {
        assumeTrue(ExternalTar.program("tar").isPresent() && ExternalTar.program("zstd").isPresent(),
                "GNU tar or the zstd program is not installed; skipping the GNU tar listing");

        List<ExternalTar.Listed> listing = ExternalTar.gnuTarListing(shard.shard().path());

        assertThat(listing).extracting(ExternalTar.Listed::bytes).containsExactly(8_589_938_695L, (long) SMALL.length);
        assertThat(listing).extracting(ExternalTar.Listed::nameHex).containsExactly(
                ExternalTar.Seen.of("big/huge.bin", 0, "").nameHex(), ExternalTar.Seen.of("big/small.txt", 0, "").nameHex());
    }

    @Test
    void pythonTarfileReadsTheExactSizeAndSha256() throws Exception {
        assumeTrue(ExternalTar.program("python3").isPresent() && ExternalTar.program("zstd").isPresent(),
                "python3 or the zstd program is not installed; skipping the Python tarfile check");

        assertThat(ExternalTar.python(ExternalTar.pythonLines(shard.shard().path()))).containsExactly(
                ExternalTar.Seen.of("big/huge.bin", 8_589_938_695L, SHA256),
                ExternalTar.Seen.of("big/small.txt", SMALL.length, Sha256.of(SMALL)));
    }
}
