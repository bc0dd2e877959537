package io.stowage.shardformat.write;

import io.stowage.events.Sha256;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarUtils;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardWriterTest {
    static final long EPOCH = 1_700_000_000L;

    @TempDir
    Path tmp;

    private BuiltShard writeAll(Path dir) throws IOException {
        List<Member> members = new DatasetScanner().scan(dir);
        ShardPlan plan = new ShardPlanner(Long.MAX_VALUE).plan(members).get(0);
        return new ShardWriter(EPOCH).write(plan, Files.createDirectories(tmp.resolve("shards")));
    }

    @Test
    void headersAreNormalised() throws IOException {
        Path dir = DatasetSharderTest.dataset(Files.createDirectories(tmp.resolve("data")), 7);

        BuiltShard shard = writeAll(dir);

        List<TarArchiveEntry> headers = ShardFiles.headers(shard.shard().path());
        assertThat(headers).extracting(TarArchiveEntry::getName)
                .containsExactlyElementsOf(shard.entries().stream().map(e -> e.path()).toList())
                .contains(DatasetSharderTest.LONG_NAME, DatasetSharderTest.NON_ASCII);
        for (TarArchiveEntry header : headers) {
            assertThat(header.isFile()).isTrue();
            assertThat(header.getMode()).isEqualTo(0100644);
            assertThat(header.getLongUserId()).isZero();
            assertThat(header.getLongGroupId()).isZero();
            assertThat(header.getUserName()).isEmpty();
            assertThat(header.getGroupName()).isEmpty();
            assertThat(header.getLastModifiedTime().toInstant().getEpochSecond()).isEqualTo(EPOCH);
        }
    }

    @Test
    void paxExtendedHeaderRecordsCarryNoUserNameAndAValidChecksum() throws IOException {
        Path dir = DatasetSharderTest.dataset(Files.createDirectories(tmp.resolve("data")), 8);

        byte[] tar = ShardFiles.tarBytes(writeAll(dir).shard().path());

        List<byte[]> paxHeaders = new ArrayList<>();
        for (int offset = 0; offset + 512 <= tar.length; offset += 512) {
            byte[] record = Arrays.copyOfRange(tar, offset, offset + 512);
            boolean ustar = new String(record, 257, 5, StandardCharsets.US_ASCII).equals("ustar");
            if (ustar && record[156] == 'x') {
                paxHeaders.add(record);
            }
        }
        assertThat(paxHeaders).as("PAX headers for the long and the non-ASCII name").hasSize(2);
        for (byte[] record : paxHeaders) {
            assertThat(Arrays.copyOfRange(record, 265, 265 + 64)).containsOnly((byte) 0);
            assertThat(TarUtils.verifyCheckSum(record)).isTrue();
        }
    }

    @Test
    void nonAsciiNamesAreUtf8InThePaxHeaderAndTheMemberManifestWhateverTheDefaultCharset() throws IOException {
        Path dir = DatasetSharderTest.dataset(Files.createDirectories(tmp.resolve("data")), 10);

        BuiltShard shard = writeAll(dir);

        byte[] paxPath = ("path=" + DatasetSharderTest.NON_ASCII + "\n").getBytes(StandardCharsets.UTF_8);
        assertThat(indexOf(ShardFiles.tarBytes(shard.shard().path()), paxPath)).isNotNegative();
        byte[] jsonName = ("\"" + DatasetSharderTest.NON_ASCII + "\"").getBytes(StandardCharsets.UTF_8);
        assertThat(indexOf(Files.readAllBytes(shard.members().path()), jsonName)).isNotNegative();
        assertThat(ShardFiles.members(shard.shard().path())).containsKey(DatasetSharderTest.NON_ASCII);
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void gnuTarListsAndExtractsTheShard() throws Exception {
        Assumptions.assumeTrue(onPath("tar") && onPath("zstd"), "GNU tar and zstd are not installed; skipping the tar check");
        Path dir = DatasetSharderTest.dataset(Files.createDirectories(tmp.resolve("data")), 9);
        BuiltShard shard = writeAll(dir);
        Path out = Files.createDirectories(tmp.resolve("extracted"));

        Process list = new ProcessBuilder("tar", "--zstd", "-tvf", shard.shard().path().toString())
                .redirectErrorStream(true).start();
        String listing = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(list.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(list.exitValue()).as(listing).isZero();
        assertThat(listing).contains("-rw-r--r-- 0/0", DatasetSharderTest.LONG_NAME, DatasetSharderTest.NON_ASCII);

        Process extract = new ProcessBuilder("tar", "--zstd", "-xf", shard.shard().path().toString(), "-C", out.toString())
                .redirectErrorStream(true).start();
        String messages = new String(extract.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(extract.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(extract.exitValue()).as(messages).isZero();
        for (var entry : shard.entries()) {
            assertThat(Sha256.of(out.resolve(entry.path()))).isEqualTo(entry.sha256());
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"../x.txt", "/abs.txt", "a/../../y.txt", "..././z.txt", "a//b", "a\\b"})
    void aPlanWithANameTheReadersRefuseIsNeverWritten(String name) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("data"));
        Path file = Files.write(dir.resolve("a.wav"), new byte[1000]);
        Member real = new DatasetScanner().scan(dir).get(0);
        ShardPlan plan = new ShardPlan(0, List.of(new Member(name, file, real.bytes(), real.modified())));
        Path shards = Files.createDirectories(tmp.resolve("shards"));

        assertThatThrownBy(() -> new ShardWriter(EPOCH).write(plan, shards))
                .isInstanceOf(DatasetInputException.class)
                .hasMessageStartingWith("member name " + name + " ");
        assertThat(shards).isEmptyDirectory();
    }

    @Test
    void aMemberThatGrewAfterTheScanFailsTheShardAndLeavesNothing() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("data"));
        Path file = Files.write(dir.resolve("a.wav"), new byte[1000]);
        ShardPlan plan = new ShardPlanner(Long.MAX_VALUE).plan(new DatasetScanner().scan(dir)).get(0);
        Files.write(file, new byte[10], java.nio.file.StandardOpenOption.APPEND);
        Path shards = Files.createDirectories(tmp.resolve("shards"));

        assertThatThrownBy(() -> new ShardWriter(EPOCH).write(plan, shards))
                .isInstanceOf(MemberChangedException.class)
                .hasMessage("dataset file changed while it was read into a shard, rebuild when it is stable: "
                        + file + " (its size changed)");
        assertThat(shards).isEmptyDirectory();
    }

    @Test
    void aMemberRewrittenWithTheSameSizeIsCaughtByItsModificationTime() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("data"));
        Path file = Files.write(dir.resolve("a.wav"), new byte[1000]);
        FileTime scanned = FileTime.fromMillis(1_600_000_000_000L);
        Files.setLastModifiedTime(file, scanned);
        ShardPlan plan = new ShardPlanner(Long.MAX_VALUE).plan(new DatasetScanner().scan(dir)).get(0);
        Files.write(file, new byte[1000]);
        FileTime rewritten = FileTime.fromMillis(1_600_000_001_000L);
        Files.setLastModifiedTime(file, rewritten);
        Path shards = Files.createDirectories(tmp.resolve("shards"));

        assertThatThrownBy(() -> new ShardWriter(EPOCH).write(plan, shards))
                .isInstanceOf(MemberChangedException.class)
                .hasMessage("dataset file changed while it was read into a shard, rebuild when it is stable: "
                        + file + " (size 1000 -> 1000 bytes, modified " + scanned + " -> " + rewritten + ")");
        assertThat(shards).isEmptyDirectory();
    }

    @Test
    void aMemberThatShrankAfterTheScanFailsTheShard() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("data"));
        Path file = Files.write(dir.resolve("a.wav"), new byte[1000]);
        ShardPlan plan = new ShardPlanner(Long.MAX_VALUE).plan(new DatasetScanner().scan(dir)).get(0);
        Files.write(file, new byte[999]);
        Path shards = Files.createDirectories(tmp.resolve("shards"));

        assertThatThrownBy(() -> new ShardWriter(EPOCH).write(plan, shards))
                .isInstanceOf(MemberChangedException.class)
                .hasMessageEndingWith(file + " (its size changed)");
        assertThat(shards).isEmptyDirectory();
    }

    private static boolean onPath(String program) {
        return Arrays.stream(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(p -> Files.isExecutable(Path.of(p, program)));
    }
}
