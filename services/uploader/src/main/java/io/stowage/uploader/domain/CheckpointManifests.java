package io.stowage.uploader.domain;

import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.CheckpointManifest;
import io.stowage.events.manifest.ModelManifest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads a checkpoint or model manifest from local disk, refusing one whose SHA-256 is not the published one. */
public final class CheckpointManifests {
    private CheckpointManifests() {
    }

    /**
     * @param expectedSha256 {@code CheckpointPublished.manifestSha256()}
     * @return the manifest parsed from exactly the bytes that were hashed
     * @throws PlanRefusedException when the file is missing, unreadable, changed or not a checkpoint manifest
     */
    public static CheckpointManifest read(Path manifest, String expectedSha256) {
        return read(manifest, expectedSha256, CheckpointManifest.class, "checkpoint manifest");
    }

    /**
     * @param expectedSha256 {@code ModelPublished.manifestSha256()}
     * @return the model manifest parsed from exactly the bytes that were hashed
     * @throws PlanRefusedException when the file is missing, unreadable, changed or not a model manifest
     */
    public static ModelManifest readModel(Path manifest, String expectedSha256) {
        return read(manifest, expectedSha256, ModelManifest.class, "model manifest");
    }

    private static <T> T read(Path manifest, String expectedSha256, Class<T> type, String what) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(manifest);
        } catch (IOException e) {
            throw new PlanRefusedException(manifest.toString(), what + " " + manifest + " cannot be read: " + e);
        }
        String actual = Sha256.of(bytes);
        if (!actual.equals(expectedSha256)) {
            throw new PlanRefusedException(manifest.toString(), what + " " + manifest
                    + " changed since publish: expected sha256 " + expectedSha256 + ", actual " + actual);
        }
        try {
            return EventCodec.mapper().readValue(bytes, type);
        } catch (IOException e) {
            throw new PlanRefusedException(manifest.toString(), what + " " + manifest
                    + " is not JSON of a " + what + ": " + e.getMessage().lines().findFirst().orElse(""));
        }
    }
}
