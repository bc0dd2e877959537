package io.stowage.shardbuilder.api;

import io.stowage.events.manifest.MemberEntry;

import java.util.List;

/**
 * Answer of {@code POST /api/baselines/archive}; for a real run sent once Kafka acknowledged {@code baseline.archived}.
 *
 * @param assetId        {@code baseline/<model>/<milestone>}, the Kafka key of the event
 * @param sourceDir      absolute, normalised archived directory
 * @param key            object key of the archive, {@code archives/baselines/<model>/<milestone>/<sha256>.tar.zst}
 * @param bytes          archive size in bytes
 * @param sha256         archive SHA-256
 * @param membersKey     object key of the member manifest
 * @param membersBytes   member manifest size in bytes
 * @param membersSha256  member manifest SHA-256
 * @param memberCount    number of files archived
 * @param memberBytes    their total size in bytes
 * @param archivePath    absolute local path of the archive; null for a dry run
 * @param manifestPath   absolute local path of the baseline manifest; null for a dry run
 * @param manifestSha256 SHA-256 of the baseline manifest (also for a dry run: what it would hold)
 * @param eventId        id of the {@code baseline.archived} event; null for a dry run
 * @param dryRun         true when nothing was kept or published
 * @param members        the member manifest's lines (path, bytes, SHA-256), in member order
 */
public record BaselineResponse(String assetId, String sourceDir, String key, long bytes, String sha256,
                               String membersKey, long membersBytes, String membersSha256, int memberCount,
                               long memberBytes, String archivePath, String manifestPath, String manifestSha256,
                               String eventId, boolean dryRun, List<MemberEntry> members) {
}
