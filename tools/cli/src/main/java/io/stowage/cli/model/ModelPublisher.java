package io.stowage.cli.model;

import io.stowage.cli.CliException;
import io.stowage.cli.Inputs;
import io.stowage.cli.checkpoint.CheckpointPublisher;
import io.stowage.events.AssetIds;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.InvalidEventException;
import io.stowage.events.ModelPublished;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.events.manifest.ModelManifest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * Turns a model directory into a model manifest (every file's path, bytes and SHA-256 now, the licence and the
 * source; no clock and no local path, so the same content gives the same bytes) and, once the caller has checked the
 * store ({@link ModelRevisions}), writes it under the staging directory and builds the {@link ModelPublished} event
 * that references it. Files are hashed by the checkpoint publisher's {@link CheckpointPublisher#hashFiles}.
 */
public final class ModelPublisher {
    private final Path stagingDir;
    private final Clock clock;

    public ModelPublisher(Path stagingDir, Clock clock) {
        this.stagingDir = stagingDir;
        this.clock = clock;
    }

    /**
     * A model revision as it would be stored.
     *
     * @param dir      the model directory, absolute and normalised
     * @param manifest the model manifest
     * @param json     its bytes, as stored at {@code models/<model>/<revision>/manifest.json}
     * @param sha256   SHA-256 of {@code json}
     */
    public record Planned(Path dir, ModelManifest manifest, byte[] json, String sha256) {
        /** @return {@code model/<model>/<revision>} */
        public String assetId() {
            return AssetIds.model(manifest.model(), manifest.revision());
        }

        /** @return the object key of each file, in manifest order */
        public List<String> fileKeys() {
            return manifest.files().stream().map(f -> ObjectKeys.modelFile(manifest.model(), manifest.revision(),
                    f.sha256(), f.path())).toList();
        }
    }

    /**
     * Hashes every file of {@code dir} and builds the manifest in memory; writes nothing.
     *
     * @throws CliException (exit 2) for an invalid name, a blank licence or source, a missing or unreadable
     *                      directory, a symlink, an empty directory or a file name that is not a valid key
     */
    public Planned plan(Path modelDir, String model, String revision, String license, String source) {
        try {
            AssetIds.model(model, revision);
        } catch (InvalidEventException e) {
            throw new CliException(CliException.USAGE, e.getMessage());
        }
        if (license == null || license.isBlank() || source == null || source.isBlank()) {
            throw new CliException(CliException.USAGE, "--license and --source must not be blank: the gate needs both");
        }
        Path dir = modelDir.toAbsolutePath().normalize();
        Inputs.requireReadableDirectory("model directory", dir);
        List<MemberEntry> files = CheckpointPublisher.hashFiles(dir);
        if (files.isEmpty()) {
            throw new CliException(CliException.USAGE, "model directory " + dir + " holds no files");
        }
        for (MemberEntry file : files) {
            try {
                ObjectKeys.modelFile(model, revision, file.sha256(), file.path());
            } catch (InvalidEventException e) {
                throw new CliException(CliException.USAGE, "cannot publish " + file.path() + ": " + e.getMessage());
            }
        }
        ModelManifest manifest = new ModelManifest(ModelManifest.FORMAT, model, revision, license.strip(),
                source.strip(), null, null, files);
        byte[] json = json(manifest);
        return new Planned(dir, manifest, json, Sha256.of(json));
    }

    /**
     * Writes the planned manifest to {@code <staging>/models/<model>/<revision>/<sha256>.json} (a name per content,
     * so a second publish with other content never overwrites a manifest an earlier event still names).
     *
     * @return the event to send
     */
    public ModelPublished stage(Planned planned) {
        return stage(planned, EventMeta.first(planned.assetId(), clock));
    }

    /**
     * As {@link #stage(Planned)} for a promoted revision: the event's causation id is the event that published the
     * checkpoint step ({@code checkpoint.published}, the step's {@code sealedEventId} in the ledger), so the ledger's
     * chain links the revision to the step; its correlation id stays the revision's own (a run's milestone archive
     * keeps only the run's events).
     *
     * @param stepEventId the id of the step's {@code checkpoint.published}, or null when unknown
     */
    public ModelPublished stage(Planned planned, String stepEventId) {
        return stage(planned, new EventMeta(java.util.UUID.randomUUID().toString(), EventMeta.CURRENT_VERSION,
                clock.instant(), planned.assetId(), stepEventId));
    }

    private ModelPublished stage(Planned planned, EventMeta meta) {
        ModelManifest m = planned.manifest();
        Path target = stagingDir.resolve("models").resolve(m.model()).resolve(m.revision())
                .resolve(planned.sha256() + ".json");
        CheckpointPublisher.writeJson(planned.json(), target);
        return ModelPublished.of(meta, m.model(), m.revision(),
                planned.dir().toString(), target.toString(), planned.json().length, planned.sha256(),
                m.files().size(), m.totalBytes(), m.license(), m.source(), m.fromCheckpoint());
    }

    /** @return the manifest as stored: pretty-printed JSON from the events module's mapper */
    public static byte[] json(ModelManifest manifest) {
        try {
            return EventCodec.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(manifest);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
