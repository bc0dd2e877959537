package io.stowage.shardformat;

import com.github.luben.zstd.Zstd;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds shards in memory the way the shard builder's ShardWriter does (PAX tar, UTF-8, normalised headers, zstd -3). */
final class TestShards {
    private TestShards() {
    }

    /** @return the uncompressed PAX tar of {@code members} (name to bytes, in this order), end marker included */
    static byte[] tar(Map<String, byte[]> members) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out, "UTF-8")) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            tar.setAddPaxHeadersForNonAsciiNames(true);
            for (Map.Entry<String, byte[]> member : members.entrySet()) {
                TarArchiveEntry entry = new TarArchiveEntry(member.getKey(), true);
                entry.setSize(member.getValue().length);
                entry.setMode(0100644);
                entry.setIds(0, 0);
                entry.setNames("", "");
                entry.setLastModifiedTime(FileTime.from(Instant.EPOCH));
                tar.putArchiveEntry(entry);
                tar.write(member.getValue());
                tar.closeArchiveEntry();
            }
            tar.finish();
        }
        return out.toByteArray();
    }

    /** @return {@code bytes} compressed as one zstd frame per piece, the pieces cut at {@code cuts} (ascending offsets) */
    static byte[] zstdFrames(byte[] bytes, long... cuts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int from = 0;
        long[] ends = Arrays.copyOf(cuts, cuts.length + 1);
        ends[cuts.length] = bytes.length;
        for (long end : ends) {
            byte[] frame = Zstd.compress(Arrays.copyOfRange(bytes, from, (int) end), 3);
            out.writeBytes(frame);
            from = (int) end;
        }
        return out.toByteArray();
    }

    /** @return the member manifest of {@code members}, as the shard builder writes it */
    static List<MemberEntry> manifest(Map<String, byte[]> members) {
        List<MemberEntry> entries = new ArrayList<>();
        members.forEach((name, bytes) -> entries.add(new MemberEntry(name, bytes.length, Sha256.of(bytes))));
        return entries;
    }

    /** @return a few members with the cases that need PAX headers: a long name, a non-ASCII name, an empty file */
    static Map<String, byte[]> sampleMembers() {
        Map<String, byte[]> members = new LinkedHashMap<>();
        members.put("a/0001.wav", pattern(3000, 1));
        members.put("b/" + "long-directory-name-".repeat(6) + "/0002.txt", "hello shard\n".repeat(40).getBytes());
        members.put("c/naïve café é.flac", pattern(700, 2));
        members.put("d/empty.bin", new byte[0]);
        members.put("e/0003.bin", pattern(512, 3));
        return members;
    }

    static byte[] pattern(int bytes, int seed) {
        byte[] out = new byte[bytes];
        new java.util.Random(seed).nextBytes(out);
        return out;
    }
}
