package io.stowage.events.manifest;

import io.stowage.events.Provenance;

import java.util.List;

/**
 * The checkpoint manifest written at publish time, outside the step directory: every file of
 * the step with its size and SHA-256 at that moment. The uploader refuses a file whose content
 * no longer matches.
 *
 * @param format always "stowage.checkpoint.v1"
 * @param files  files in sorted path order, paths relative to stepDir
 */
public record CheckpointManifest(String format, String experiment, String run, long step, String stepDir,
                                 boolean key, List<String> tags, Provenance provenance, List<MemberEntry> files) {
    public static final String FORMAT = "stowage.checkpoint.v1";
}
