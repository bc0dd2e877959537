package io.stowage.prefetch;

import com.github.luben.zstd.ZstdOutputStream;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Builds small PAX {@code tar.zst} shards in memory for tests, with their member manifests. */
final class TestShards {
    private TestShards() {
    }

    /** @return {@code count} members {@code <prefix>/<i>.bin} of {@code bytes} seeded random bytes each, in order */
    static Map<String, byte[]> randomMembers(String prefix, int count, int bytes, long seed) {
        Random random = new Random(seed);
        Map<String, byte[]> members = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            byte[] content = new byte[bytes];
            random.nextBytes(content);
            members.put(prefix + "/" + String.format("%04d", i) + ".bin", content);
        }
        return members;
    }

    /** @return the members as a PAX tar in one zstd frame (level 3) */
    static byte[] tarZst(Map<String, byte[]> members) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZstdOutputStream zstd = new ZstdOutputStream(bytes, 3);
             TarArchiveOutputStream tar = new TarArchiveOutputStream(zstd, StandardCharsets.UTF_8.name())) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            for (Map.Entry<String, byte[]> member : members.entrySet()) {
                TarArchiveEntry entry = new TarArchiveEntry(member.getKey(), true);
                entry.setSize(member.getValue().length);
                tar.putArchiveEntry(entry);
                tar.write(member.getValue());
                tar.closeArchiveEntry();
            }
        }
        return bytes.toByteArray();
    }

    /** @return the member manifest entries of {@code members}, in order */
    static List<MemberEntry> manifest(Map<String, byte[]> members) {
        return members.entrySet().stream()
                .map(m -> new MemberEntry(m.getKey(), m.getValue().length, Sha256.of(m.getValue()))).toList();
    }

    /** @return the member manifest as the shard-builder writes it: one JSON object per line */
    static byte[] manifestJsonl(List<MemberEntry> entries) {
        StringBuilder text = new StringBuilder();
        for (MemberEntry e : entries) {
            text.append("{\"path\":\"").append(e.path()).append("\",\"bytes\":").append(e.bytes())
                    .append(",\"sha256\":\"").append(e.sha256()).append("\"}\n");
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }
}
