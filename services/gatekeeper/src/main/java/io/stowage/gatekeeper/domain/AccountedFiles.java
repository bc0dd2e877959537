package io.stowage.gatekeeper.domain;

import io.stowage.events.manifest.MemberEntry;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The files one asset's trusted manifests account for.
 *
 * @param localRoot the asset's local directory (dataset source dir, checkpoint step dir)
 * @param entries   path relative to {@code localRoot}, '/'-separated, to its manifest entry and evidence
 */
record AccountedFiles(Path localRoot, Map<String, Accounted> entries) {

    /**
     * One accounted file.
     *
     * @param entry    its manifest entry (path, bytes, SHA-256)
     * @param evidence ledger event ids of the verified object that vouches for it (the checkpoint file's object,
     *                 or the member manifest's object of its shard)
     */
    record Accounted(MemberEntry entry, List<String> evidence) {
    }

    /** @return the accounted entry for {@code file} when it lies under this asset's root, else null */
    Accounted entryFor(Path file) {
        if (!file.startsWith(localRoot) || file.equals(localRoot)) {
            return null;
        }
        return entries.get(localRoot.relativize(file).toString().replace('\\', '/'));
    }
}
