package io.stowage.shardformat.write;

import com.fasterxml.jackson.databind.MappingIterator;
import com.github.luben.zstd.ZstdInputStream;
import io.stowage.events.EventCodec;
import io.stowage.events.manifest.MemberEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Test helper: reads shards and member manifests back with an independent reader. */
public final class ShardFiles {
    private ShardFiles() {
    }

    /** @return member name to content, in archive order */
    public static Map<String, byte[]> members(Path shard) throws IOException {
        Map<String, byte[]> members = new LinkedHashMap<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(
                new ZstdInputStream(Files.newInputStream(shard)), "UTF-8")) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                members.put(entry.getName(), tar.readAllBytes());
            }
        }
        return members;
    }

    /** @return the tar entries' headers, in archive order */
    public static List<TarArchiveEntry> headers(Path shard) throws IOException {
        List<TarArchiveEntry> headers = new ArrayList<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(
                new ZstdInputStream(Files.newInputStream(shard)), "UTF-8")) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                headers.add(entry);
            }
        }
        return headers;
    }

    /** @return the decompressed tar stream */
    public static byte[] tarBytes(Path shard) throws IOException {
        try (InputStream in = new ZstdInputStream(Files.newInputStream(shard))) {
            return in.readAllBytes();
        }
    }

    /** @return the lines of a member manifest */
    public static List<MemberEntry> memberManifest(Path jsonl) throws IOException {
        try (MappingIterator<MemberEntry> lines = EventCodec.mapper().readerFor(MemberEntry.class).readValues(jsonl.toFile())) {
            return lines.readAll();
        }
    }
}
