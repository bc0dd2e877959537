package io.stowage.events.manifest;

import io.stowage.events.Provenance;

import java.util.List;

/**
 * The model manifest of one model revision, stored at {@code models/<model>/<revision>/manifest.json}: every file
 * with its size and SHA-256, the licence, the source and the provenance. Written by the CLI
 * ({@code stowage model publish}) from the files' content and the options only, never a clock or a local path, so
 * that the same revision published twice gives the same bytes: a stored manifest with other bytes is another
 * revision's content and is refused.
 *
 * @param format         always {@link #FORMAT}
 * @param model          the model name (a key segment)
 * @param revision       the revision name (a key segment)
 * @param license        the licence the files are distributed under, e.g. {@code BSD-2-Clause}; never blank
 * @param source         where the files come from (a URL, a package, a checkpoint asset id); never blank
 * @param fromCheckpoint the checkpoint step asset id ({@code checkpoint/<E>/<R>/<step>}) it was promoted from, or
 *                       null for a revision published from a directory
 * @param provenance     the checkpoint's provenance a promoted revision inherits; null otherwise
 * @param files          files in sorted path order, paths relative to the model directory, '/'-separated
 */
public record ModelManifest(String format, String model, String revision, String license, String source,
                            String fromCheckpoint, Provenance provenance, List<MemberEntry> files) {
    public static final String FORMAT = "stowage.model.v1";

    /** @return the total size of the files in bytes */
    public long totalBytes() {
        return files.stream().mapToLong(MemberEntry::bytes).sum();
    }
}
