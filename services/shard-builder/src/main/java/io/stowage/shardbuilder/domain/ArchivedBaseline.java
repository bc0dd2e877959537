package io.stowage.shardbuilder.domain;

import io.stowage.events.manifest.BaselineManifest;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.shardformat.write.WrittenFile;

import java.nio.file.Path;
import java.util.List;

/**
 * The outcome of archiving one directory as a baseline.
 *
 * @param sourceDir    absolute, normalised archived directory
 * @param archive      the {@code <sha256>.tar.zst}; null for a dry run (nothing kept)
 * @param members      its member manifest {@code <sha256>.members.jsonl}; null for a dry run
 * @param manifestFile the baseline manifest {@code <sha256>.manifest.json}; null for a dry run
 * @param manifest     the baseline manifest's content (keys, sizes, SHA-256s), also for a dry run
 * @param manifestSha256 SHA-256 of the baseline manifest's bytes (what {@code manifestFile} holds or would hold)
 * @param entries      the member manifest's lines, in member order
 */
public record ArchivedBaseline(Path sourceDir, WrittenFile archive, WrittenFile members, WrittenFile manifestFile,
                               BaselineManifest manifest, String manifestSha256,
                               List<MemberEntry> entries) {
    public ArchivedBaseline {
        entries = List.copyOf(entries);
    }

    /** @return true when this was a dry run: the SHA-256s are known, but no file was kept */
    public boolean dryRun() {
        return archive == null;
    }
}
