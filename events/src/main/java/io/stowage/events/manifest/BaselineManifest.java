package io.stowage.events.manifest;

/**
 * The baseline manifest ({@code <staging>/archives/baselines/<model>/<milestone>/<sha256>.manifest.json}): which
 * archive and member manifest make up one hash-bound baseline archive. Written by shard-builder beside the archive;
 * deterministic (no local path, no wall-clock time), so the same directory gives the same bytes. The gatekeeper
 * reads it (trusted by the SHA-256 of the {@code baseline.archived} event) to learn which objects must be verified.
 *
 * @param format        always {@value #FORMAT}
 * @param model         model name
 * @param milestone     milestone name
 * @param key           object key of the archive ({@code archives/baselines/<model>/<milestone>/<sha256>.tar.zst})
 * @param bytes         archive size in bytes
 * @param sha256        archive SHA-256
 * @param membersKey    object key of its member manifest
 * @param membersBytes  member manifest size in bytes
 * @param membersSha256 member manifest SHA-256
 * @param memberCount   number of files in the archive
 * @param memberBytes   their total uncompressed size in bytes
 */
public record BaselineManifest(String format, String model, String milestone, String key, long bytes, String sha256,
                               String membersKey, long membersBytes, String membersSha256, int memberCount,
                               long memberBytes) {
    public static final String FORMAT = "stowage.baseline.v1";
}
