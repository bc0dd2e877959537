package io.stowage.shardformat;

import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assumptions.assumeThat;

class ShardReaderTest {
    private final ShardReader reader = new ShardReader();

    @TempDir
    Path tmp;

    @Test
    void readsEveryMemberWithItsBytesAndMatchesTheManifest() throws IOException {
        Map<String, byte[]> members = TestShards.sampleMembers();
        byte[] shard = TestShards.zstdFrames(TestShards.tar(members));
        Map<String, byte[]> read = new LinkedHashMap<>();
        ShardReader.ShardDigest digest = reader.read(new ByteArrayInputStream(shard),
                (member, content) -> read.put(member.name(), content.readAllBytes()));

        assertThat(read.keySet()).containsExactlyElementsOf(members.keySet());
        members.forEach((name, bytes) -> assertThat(read.get(name)).as(name).isEqualTo(bytes));
        assertThat(digest).isEqualTo(new ShardReader.ShardDigest(shard.length, Sha256.of(shard)));

        ShardReport report = reader.verify(new ByteArrayInputStream(shard), TestShards.manifest(members), Sha256.of(shard));
        assertThat(report.problems()).isEmpty();
        assertThat(report.membersRead()).isEqualTo(5);
        assertThat(report.memberBytes()).isEqualTo(3000 + 480 + 700 + 0 + 512);
        assertThat(report.shardBytes()).isEqualTo(shard.length);
        assertThat(report.shardSha256()).isEqualTo(Sha256.of(shard));
    }

    @Test
    void twoConcatenatedFramesGiveTheSameMembersAsOne() throws IOException {
        Map<String, byte[]> members = TestShards.sampleMembers();
        byte[] tar = TestShards.tar(members);
        byte[] oneFrame = TestShards.zstdFrames(tar);
        byte[] twoFrames = TestShards.zstdFrames(tar, 1777); // the cut falls inside the first member's data

        assertThat(twoFrames).isNotEqualTo(oneFrame);
        assertThat(membersOf(twoFrames)).isEqualTo(membersOf(oneFrame));
        assertThat(reader.verify(new ByteArrayInputStream(twoFrames), TestShards.manifest(members), null).problems()).isEmpty();
    }

    @Test
    void framesConcatenatedByTheZstdCommandGiveTheSameMembers() throws Exception {
        assumeThat(Path.of("/usr/bin/zstd")).as("the zstd command").exists();
        Map<String, byte[]> members = TestShards.sampleMembers();
        byte[] tar = TestShards.tar(members);
        Path first = Files.write(tmp.resolve("first.tar.part"), Arrays.copyOfRange(tar, 0, 2048));
        Path second = Files.write(tmp.resolve("second.tar.part"), Arrays.copyOfRange(tar, 2048, tar.length));
        for (Path part : List.of(first, second)) {
            Process zstd = new ProcessBuilder("zstd", "-3", "-q", "-f", part.toString()).redirectErrorStream(true).start();
            assertThat(zstd.waitFor()).as(new String(zstd.getInputStream().readAllBytes())).isZero();
        }
        ByteArrayOutputStream cat = new ByteArrayOutputStream();
        cat.writeBytes(Files.readAllBytes(Path.of(first + ".zst")));
        cat.writeBytes(Files.readAllBytes(Path.of(second + ".zst")));

        assertThat(membersOf(cat.toByteArray())).isEqualTo(membersOf(TestShards.zstdFrames(tar)));
    }

    @Test
    void everyCutOfTheStreamIsTruncatedNeverAShorterTar() throws IOException {
        Map<String, byte[]> members = TestShards.sampleMembers();
        byte[] tar = TestShards.tar(members);
        // frame ends: inside the first member's data, exactly after a member's padded data (a tar block boundary
        // where the next header is due), and exactly where the end-of-archive marker starts
        long memberEnd = endOfMemberData(tar, "a/0001.wav");
        long markerStart = endOfMemberData(tar, "e/0003.bin");
        byte[] shard = TestShards.zstdFrames(tar, 1000, memberEnd, markerStart);
        List<Integer> frameBoundaries = frameBoundaries(tar, 1000, memberEnd, markerStart);

        List<Integer> cuts = new ArrayList<>();
        for (int cut = 0; cut < shard.length; cut++) {
            cuts.add(cut);
        }
        assertThat(cuts).containsAll(frameBoundaries);
        for (int cut : cuts) {
            ShardReport report = reader.verify(new ByteArrayInputStream(shard, 0, cut), TestShards.manifest(members), null);
            assertThat(report.problems()).as("cut at %d of %d", cut, shard.length)
                    .extracting(ShardProblem::kind).contains(ShardProblem.Kind.TRUNCATED);
            assertThat(report.ok()).isFalse();
        }
        assertThat(reader.verify(new ByteArrayInputStream(shard), TestShards.manifest(members), null).ok()).isTrue();
    }

    @Test
    void aCutAtAFrameEndInsideAHeaderBlockIsTruncatedNotCorrupt() throws IOException {
        Map<String, byte[]> members = TestShards.sampleMembers();
        byte[] tar = TestShards.tar(members);
        long secondHeader = endOfMemberData(tar, "a/0001.wav");
        long markerStart = endOfMemberData(tar, "e/0003.bin");
        List<Long> cuts = new ArrayList<>();
        for (long inBlock : new long[] {1, 17, 100, 257, 511}) {
            cuts.add(inBlock);
            cuts.add(secondHeader + inBlock);
            cuts.add(markerStart + 512 + inBlock);
        }
        for (long cut : cuts) {
            byte[] shard = TestShards.zstdFrames(tar, cut);
            int firstFrame = TestShards.zstdFrames(Arrays.copyOf(tar, (int) cut)).length;
            ShardReport report = reader.verify(new ByteArrayInputStream(shard, 0, firstFrame),
                    TestShards.manifest(members), null);
            assertThat(report.problems()).as("tar cut at %d, on a frame end", cut)
                    .extracting(ShardProblem::kind).contains(ShardProblem.Kind.TRUNCATED)
                    .doesNotContain(ShardProblem.Kind.CORRUPT_TAR);
        }
    }

    @Test
    void aCutAtTheStartOfTheEndMarkerNamesTheMissingMarker() throws IOException {
        Map<String, byte[]> members = TestShards.sampleMembers();
        byte[] tar = TestShards.tar(members);
        long markerStart = endOfMemberData(tar, "e/0003.bin");
        byte[] shard = TestShards.zstdFrames(tar, markerStart);
        int firstFrame = TestShards.zstdFrames(Arrays.copyOf(tar, (int) markerStart)).length;

        ShardStreamException e = catchThrowableOfType(ShardStreamException.class, () -> reader.read(
                new ByteArrayInputStream(shard, 0, firstFrame), (member, content) -> content.readAllBytes()));
        assertThat(e.kind()).isEqualTo(ShardStreamException.Kind.TRUNCATED);
        assertThat(e.getMessage()).isEqualTo("TRUNCATED: the tar stops at decompressed offset " + markerStart
                + " without its end-of-archive marker (two zero blocks due at offset " + markerStart + ")");
        // every member was there and good: only the marker is missing
        ShardReport report = reader.verify(new ByteArrayInputStream(shard, 0, firstFrame), TestShards.manifest(members), null);
        assertThat(report.problems()).extracting(ShardProblem::kind).containsExactly(ShardProblem.Kind.TRUNCATED);
    }

    @Test
    void aCutAfterAMemberAtABlockBoundaryReportsTruncatedAndTheMissingMembers() throws IOException {
        Map<String, byte[]> members = TestShards.sampleMembers();
        byte[] tar = TestShards.tar(members);
        long memberEnd = endOfMemberData(tar, "a/0001.wav");
        assertThat(memberEnd % 512).isZero();
        int firstFrame = TestShards.zstdFrames(Arrays.copyOf(tar, (int) memberEnd)).length;
        byte[] shard = TestShards.zstdFrames(tar, memberEnd);

        ShardReport report = reader.verify(new ByteArrayInputStream(shard, 0, firstFrame), TestShards.manifest(members), null);
        assertThat(report.problems()).extracting(ShardProblem::kind, ShardProblem::member).containsExactly(
                org.assertj.core.groups.Tuple.tuple(ShardProblem.Kind.TRUNCATED, null),
                org.assertj.core.groups.Tuple.tuple(ShardProblem.Kind.MISSING_MEMBER, "b/" + "long-directory-name-".repeat(6) + "/0002.txt"),
                org.assertj.core.groups.Tuple.tuple(ShardProblem.Kind.MISSING_MEMBER, "c/naïve café é.flac"),
                org.assertj.core.groups.Tuple.tuple(ShardProblem.Kind.MISSING_MEMBER, "d/empty.bin"),
                org.assertj.core.groups.Tuple.tuple(ShardProblem.Kind.MISSING_MEMBER, "e/0003.bin"));
    }

    @Test
    void aCutInsideAMembersDataNamesThatMember() throws IOException {
        Map<String, byte[]> members = TestShards.sampleMembers();
        byte[] tar = TestShards.tar(members);
        byte[] shard = TestShards.zstdFrames(tar, 2000); // a/0001.wav's data spans tar offsets 512-3512
        int firstFrame = TestShards.zstdFrames(Arrays.copyOf(tar, 2000)).length;

        ShardReport report = reader.verify(new ByteArrayInputStream(shard, 0, firstFrame), TestShards.manifest(members), null);

        assertThat(report.problems()).first().isEqualTo(new ShardProblem(ShardProblem.Kind.TRUNCATED, "a/0001.wav",
                "member data cut: Truncated TAR archive"));
        assertThat(report.problems()).extracting(ShardProblem::member).doesNotHaveDuplicates().hasSize(5);
        assertThat(report.memberBytes()).isEqualTo(2000 - 512);
    }

    @Test
    void namesEveryMemberThatDiffersFromTheManifest() throws IOException {
        Map<String, byte[]> members = TestShards.sampleMembers();
        byte[] shard = TestShards.zstdFrames(TestShards.tar(members));
        List<MemberEntry> manifest = new ArrayList<>(TestShards.manifest(members));
        MemberEntry first = manifest.get(0);
        MemberEntry third = manifest.get(2);
        manifest.set(0, new MemberEntry(first.path(), first.bytes(), "0".repeat(64)));
        manifest.set(2, new MemberEntry(third.path(), 701, third.sha256()));
        manifest.remove(4);
        manifest.add(new MemberEntry("f/gone.wav", 10, "1".repeat(64)));

        ShardReport report = reader.verify(new ByteArrayInputStream(shard), manifest, "2".repeat(64));

        assertThat(report.problems()).containsExactly(
                new ShardProblem(ShardProblem.Kind.SHA256_MISMATCH, "a/0001.wav", "expected sha256 " + "0".repeat(64)
                        + ", read " + Sha256.of(members.get("a/0001.wav"))),
                new ShardProblem(ShardProblem.Kind.SIZE_MISMATCH, "c/naïve café é.flac", "expected 701 bytes, read 700"),
                new ShardProblem(ShardProblem.Kind.EXTRA_MEMBER, "e/0003.bin", "512 bytes, not in the member manifest"),
                new ShardProblem(ShardProblem.Kind.MISSING_MEMBER, "f/gone.wav", "in the member manifest, not in the tar"),
                new ShardProblem(ShardProblem.Kind.SHARD_SHA256_MISMATCH, null, "expected sha256 " + "2".repeat(64)
                        + ", read " + Sha256.of(shard) + " (" + shard.length + " bytes)"));
    }

    @Test
    void bytesThatAreNotZstdAreCorruptZstd() throws IOException {
        byte[] notZstd = "this is not a zstd stream, just text".getBytes();
        ShardReport report = reader.verify(new ByteArrayInputStream(notZstd), List.of(), null);
        assertThat(report.problems()).extracting(ShardProblem::kind).containsExactly(ShardProblem.Kind.CORRUPT_ZSTD);
    }

    @Test
    void garbageAfterTheEndMarkerIsCorruptTar() throws IOException {
        Map<String, byte[]> members = TestShards.sampleMembers();
        byte[] tar = TestShards.tar(members);
        byte[] longer = Arrays.copyOf(tar, tar.length + 512);
        longer[tar.length + 3] = 7;
        ShardReport report = reader.verify(new ByteArrayInputStream(TestShards.zstdFrames(longer)), TestShards.manifest(members), null);
        assertThat(report.problems()).extracting(ShardProblem::kind).containsExactly(ShardProblem.Kind.CORRUPT_TAR);
        assertThat(report.problems().get(0).detail()).contains("after the end-of-archive marker");
    }

    @Test
    void aFailingSourceIsAnIoExceptionNotAVerdictOnTheShard() throws IOException {
        byte[] shard = TestShards.zstdFrames(TestShards.tar(TestShards.sampleMembers()));
        InputStream failing = new java.io.FilterInputStream(new ByteArrayInputStream(shard)) {
            private int served;

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (served > 100) {
                    throw new IOException("connection reset");
                }
                int n = super.read(b, off, Math.min(len, 64));
                served += Math.max(n, 0);
                return n;
            }
        };
        IOException e = catchThrowableOfType(IOException.class, () -> reader.verify(failing, List.of(), null));
        assertThat(e).isNotInstanceOf(ShardStreamException.class).hasMessage("connection reset");
    }

    private Map<String, List<Byte>> membersOf(byte[] shard) throws IOException {
        Map<String, List<Byte>> read = new LinkedHashMap<>();
        reader.read(new ByteArrayInputStream(shard), (member, content) -> {
            List<Byte> bytes = new ArrayList<>();
            for (byte b : content.readAllBytes()) {
                bytes.add(b);
            }
            read.put(member.name(), bytes);
        });
        return read;
    }

    /** @return the tar offset just after {@code name}'s data, padded to a 512-byte block (where the next header starts) */
    private static long endOfMemberData(byte[] tar, String name) throws IOException {
        var in = new org.apache.commons.compress.archivers.tar.TarArchiveInputStream(new ByteArrayInputStream(tar), "UTF-8");
        for (var entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
            if (entry.getName().equals(name)) {
                long start = in.getBytesRead();
                return (start + entry.getSize() + 511) / 512 * 512;
            }
        }
        throw new IllegalArgumentException(name);
    }

    /** @return the compressed offsets where each frame ends (the cuts at frame boundaries) */
    private static List<Integer> frameBoundaries(byte[] tar, long... cuts) {
        List<Integer> ends = new ArrayList<>();
        for (int i = 1; i <= cuts.length; i++) {
            ends.add(TestShards.zstdFrames(tar, Arrays.copyOf(cuts, i)).length - TestShards.zstdFrames(
                    Arrays.copyOfRange(tar, (int) cuts[i - 1], tar.length)).length);
        }
        return ends;
    }
}
