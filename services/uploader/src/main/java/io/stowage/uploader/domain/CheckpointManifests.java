package io.stowage.uploader.domain;

import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.CheckpointManifest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads a checkpoint manifest from local disk, refusing one whose SHA-256 is not the published one. */
public final class CheckpointManifests {
    private CheckpointManifests() {
    }

    /**
     * @param expectedSha256 {@code CheckpointPublished.manifestSha256()}
     * @return the manifest parsed from exactly the bytes that were hashed
     * @throws PlanRefusedException when the file is missing, unreadable, changed or not a checkpoint manifest
     */
    public static CheckpointManifest read(Path manifest, String expectedSha256) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(manifest);
        } catch (IOException e) {
            throw new PlanRefusedException(manifest.toString(), "checkpoint manifest " + manifest
                    + " cannot be read: " + e);
        }
        String actual = Sha256.of(bytes);
        if (!actual.equals(expectedSha256)) {
            throw new PlanRefusedException(manifest.toString(), "checkpoint manifest " + manifest
                    + " changed since publish: expected sha256 " + expectedSha256 + ", actual " + actual);
        }
        try {
            return EventCodec.mapper().readValue(bytes, CheckpointManifest.class);
        } catch (IOException e) {
            throw new PlanRefusedException(manifest.toString(), "checkpoint manifest " + manifest
                    + " is not JSON of a checkpoint manifest: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }
}
