package io.stowage.gatekeeper.domain;

import io.stowage.events.manifest.MemberEntry;

import java.nio.file.Path;
import java.util.Map;

/**
 * The files one asset's trusted manifests account for.
 *
 * @param localRoot the asset's local directory (dataset source dir, checkpoint step dir)
 * @param entries   path relative to {@code localRoot}, '/'-separated, to its manifest entry
 */
record AccountedFiles(Path localRoot, Map<String, MemberEntry> entries) {

    /** @return the manifest entry for {@code file} when it lies under this asset's root, else null */
    MemberEntry entryFor(Path file) {
        if (!file.startsWith(localRoot) || file.equals(localRoot)) {
            return null;
        }
        return entries.get(localRoot.relativize(file).toString().replace('\\', '/'));
    }
}
