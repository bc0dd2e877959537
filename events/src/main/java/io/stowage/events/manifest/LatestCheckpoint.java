package io.stowage.events.manifest;

import java.util.List;

/**
 * The {@code latest} pointer of a run ({@code checkpoints/<E>/<R>/latest.json}): the newest step of
 * which every file was uploaded to the primary store and verified OK there. Written by the uploader
 * only after the verifier's {@code object.verified} OK for each file; read by
 * {@code stowage checkpoint fetch --latest}.
 *
 * @param format    always {@link #FORMAT}
 * @param assetId   the step's asset id ({@code checkpoint:<E>/<R>/<step>})
 * @param step      the step number
 * @param files     the step's files in path order, each with its object key, size and SHA-256
 * @param updatedAt when the pointer was written, ISO-8601 UTC
 */
public record LatestCheckpoint(String format, String experiment, String run, long step, String assetId,
                               List<File> files, String updatedAt) {
    public static final String FORMAT = "stowage.checkpoint-latest.v1";

    /**
     * One verified file of the step.
     *
     * @param path   path inside the step directory, '/'-separated
     * @param key    its object key in the primary store
     * @param bytes  size in bytes
     * @param sha256 SHA-256, 64 lower-case hex digits
     */
    public record File(String path, String key, long bytes, String sha256) {
    }
}
