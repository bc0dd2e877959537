package io.stowage.cli.model;

import io.stowage.cli.CliException;
import io.stowage.cli.checkpoint.CheckpointFetcher;
import io.stowage.cli.checkpoint.StoredCheckpoint;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.AssetIds;
import io.stowage.events.ModelPublished;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Provenance;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.events.manifest.ModelManifest;
import io.stowage.store.ObjectHead;
import io.stowage.store.StoreException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns a stored checkpoint step into a model revision inside the store: consumes the step's objects (listed, or named
 * by the run's {@code latest.json}) and its provenance from the ledger, and produces a copy of each file at its
 * {@code models/<model>/<revision>/<sha256>/<path>} key ({@link PrimaryStore#copy}: CopyObject, UploadPartCopy parts
 * above the threshold; nothing is downloaded), each copy re-read in full and its SHA-256 checked, then the model
 * manifest (with {@code fromCheckpoint} and the inherited provenance) and the {@link ModelPublished} event that sends it
 * through the uploader and verifier like a published directory.
 */
public final class ModelPromoter {
    /** Bytes per UploadPartCopy part: 512 MiB, so a 50 GiB file takes 100 part copies. */
    public static final long PART_SIZE = 512L << 20;

    private final PrimaryStore store;
    private final ModelPublisher publisher;

    public ModelPromoter(PrimaryStore store, ModelPublisher publisher) {
        this.store = store;
        this.publisher = publisher;
    }

    /**
     * The promoted revision as it will be stored, and the step it came from.
     *
     * @param checkpoint  the step's asset id, {@code checkpoint/<experiment>/<run>/<step>}
     * @param stepEventId the id of the step's {@code checkpoint.published} (its ledger {@code sealedEventId}), or null
     * @param experiment  the step's experiment, as given
     * @param run         the step's run, as given
     * @param step        the step number as stored (for {@code --latest}, the one the run's latest.json names)
     */
    public record Promotion(ModelPublisher.Planned planned, String checkpoint, List<StoredCheckpoint.StoredFile> files,
                            String stepEventId, String experiment, String run, long step) {
    }

    /**
     * What the ledger knows of the step: its provenance, the id of the event that published it, and the keys of its
     * checkpoint-file objects in the primary store (the step's files as uploaded; empty when the ledger holds none).
     */
    public record StepRecord(Provenance provenance, String publishedEventId, java.util.Set<String> fileKeys) {
        public StepRecord {
            fileKeys = fileKeys == null ? java.util.Set.of() : java.util.Set.copyOf(fileKeys);
        }

        /** @return the record of the step's ledger evidence: its CHECKPOINT_FILE objects in the primary store */
        public static StepRecord of(io.stowage.events.ledger.AssetEvidence asset) {
            java.util.Set<String> files = new java.util.HashSet<>();
            if (asset.objects() != null) {
                asset.objects().stream().filter(o -> "primary".equals(o.store())
                                && o.kind() == io.stowage.events.ObjectKind.CHECKPOINT_FILE)
                        .forEach(o -> files.add(o.key()));
            }
            return new StepRecord(asset.provenance(), asset.sealedEventId(), files);
        }
    }

    /**
     * Finds the step and plans the revision; copies nothing.
     *
     * @param stepOf       the ledger's record of a checkpoint step by asset id
     * @param promotedDir the local directory the revision is recorded under (never read: every file is already at
     *                    its key, so the uploader only HEADs it)
     */
    public Promotion plan(String experiment, String run, Long step, String model, String revision, String license,
                          String source, java.util.function.Function<String, StepRecord> stepOf, Path promotedDir) {
        StoredCheckpoint stored = new CheckpointFetcher(store).locate(experiment, run, step);
        String checkpoint = AssetIds.checkpoint(experiment, run, stored.step());
        StepRecord record = stepOf.apply(checkpoint);
        requireRecordedFiles(checkpoint, stored, record);
        Provenance provenance = record.provenance();
        List<MemberEntry> files = new ArrayList<>();
        for (StoredCheckpoint.StoredFile file : stored.files()) {
            ObjectHead head = store.head(file.key()).orElseThrow(() -> new CliException(CliException.FAILED,
                    "cannot promote " + checkpoint + ": " + file.key() + " is gone from the primary store"));
            files.add(new MemberEntry(file.path(), head.bytes(), file.sha256()));
        }
        ModelManifest manifest = new ModelManifest(ModelManifest.FORMAT, model, revision, license.strip(),
                source == null || source.isBlank() ? checkpoint : source.strip(), checkpoint, provenance, files);
        byte[] json = ModelPublisher.json(manifest);
        return new Promotion(new ModelPublisher.Planned(promotedDir, manifest, json, Sha256.of(json)), checkpoint,
                stored.files(), record.publishedEventId(), experiment, run, stored.step());
    }

    /**
     * The store's listing of the step must hold exactly the files the ledger recorded for it: a recorded file missing
     * from the store would make a revision without it, a file in the store the ledger never recorded would put
     * unknown bytes in the revision.
     *
     * @throws CliException exit 1 naming up to five missing and five unrecorded keys: nothing promoted
     */
    static void requireRecordedFiles(String checkpoint, StoredCheckpoint stored, StepRecord record) {
        java.util.Set<String> listed = new java.util.TreeSet<>();
        stored.files().forEach(f -> listed.add(f.key()));
        if (record.fileKeys().isEmpty()) {
            throw new CliException(CliException.FAILED, "cannot promote " + checkpoint + ": the ledger records no"
                    + " stored file of it (its upload may not have finished): nothing promoted");
        }
        List<String> missing = record.fileKeys().stream().filter(k -> !listed.contains(k)).sorted().toList();
        List<String> unrecorded = listed.stream().filter(k -> !record.fileKeys().contains(k)).toList();
        if (!missing.isEmpty() || !unrecorded.isEmpty()) {
            throw new CliException(CliException.FAILED, "cannot promote " + checkpoint + ": "
                    + (missing.isEmpty() ? "" : missing.size() + " file(s) the ledger recorded are not in the primary"
                    + " store (" + String.join(", ", missing.subList(0, Math.min(5, missing.size()))) + ")")
                    + (!missing.isEmpty() && !unrecorded.isEmpty() ? "; " : "")
                    + (unrecorded.isEmpty() ? "" : unrecorded.size() + " object(s) under the step the ledger never"
                    + " recorded (" + String.join(", ", unrecorded.subList(0, Math.min(5, unrecorded.size()))) + ")")
                    + ": nothing promoted");
        }
    }

    /**
     * Copies every file inside the store and re-reads each copy in full.
     *
     * @param partCopyThreshold above this many bytes a file is copied in parts
     * @param partSize          bytes per part copy ({@link #PART_SIZE} normally; at least 5 MiB)
     * @return the parts used per file, in file order (0 for one CopyObject)
     * @throws CliException exit 1 when a copy fails or does not hash to the step's SHA-256
     */
    public List<Integer> copy(Promotion promotion, long partCopyThreshold, long partSize) {
        List<Integer> parts = new ArrayList<>();
        List<String> targets = promotion.planned().fileKeys();
        for (int i = 0; i < targets.size(); i++) {
            StoredCheckpoint.StoredFile file = promotion.files().get(i);
            try {
                parts.add(store.copy(file.key(), targets.get(i), Map.of("kind", "MODEL_FILE"), partCopyThreshold, partSize));
                String actual = store.readSha256(targets.get(i));
                if (!actual.equals(file.sha256())) {
                    throw new CliException(CliException.FAILED, "the copy of " + file.key() + " at " + targets.get(i)
                            + " hashes to " + actual + ", not " + file.sha256());
                }
            } catch (StoreException e) {
                throw new CliException(CliException.FAILED, "cannot copy " + file.key() + " to " + targets.get(i) + ": "
                        + e.getMessage(), e);
            }
        }
        return parts;
    }

    /** @return the event for the promoted revision (its manifest staged like a published one) */
    public ModelPublished stage(Promotion promotion) {
        return publisher.stage(promotion.planned(), promotion.stepEventId());
    }

    /** @return {@code <staging>/models/<model>/<revision>/promoted}: never created or read */
    public static Path promotedDir(Path stagingDir, String model, String revision) {
        ObjectKeys.modelPrefix(model, revision);
        return stagingDir.toAbsolutePath().resolve("models").resolve(model).resolve(revision).resolve("promoted");
    }
}
