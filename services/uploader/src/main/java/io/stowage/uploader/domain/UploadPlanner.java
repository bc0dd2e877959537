package io.stowage.uploader.domain;

import io.stowage.events.BaselineArchived;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.DatasetSealed;
import io.stowage.events.InvalidEventException;
import io.stowage.events.ModelPublished;
import io.stowage.events.ObjectKeys;
import io.stowage.events.ObjectKind;
import io.stowage.events.ShardBuilt;
import io.stowage.events.manifest.CheckpointManifest;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.events.manifest.ModelManifest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides what to upload for an event: consumes {@link ShardBuilt}, {@link DatasetSealed} and
 * {@link CheckpointPublished} (with its checkpoint manifest) and produces {@link UploadTask}s at
 * the content addresses of {@link ObjectKeys}. Pure: no file or store access.
 */
public final class UploadPlanner {
    private UploadPlanner() {
    }

    /** @return the shard, then its member manifest, both in the primary store */
    public static List<UploadTask> forShard(ShardBuilt e) {
        return List.of(
                new UploadTask(UploadTask.PRIMARY, ObjectKeys.shard(e.dataset(), e.revision(), e.sha256()),
                        ObjectKind.SHARD, Path.of(e.shardPath()), e.bytes(), e.sha256()),
                new UploadTask(UploadTask.PRIMARY, ObjectKeys.members(e.dataset(), e.revision(), e.sha256()),
                        ObjectKind.MEMBERS, Path.of(e.membersPath()), e.membersBytes(), e.membersSha256()));
    }

    /** @return the dataset manifest in the primary store */
    public static List<UploadTask> forDataset(DatasetSealed e) {
        return List.of(new UploadTask(UploadTask.PRIMARY, ObjectKeys.datasetManifest(e.dataset(), e.revision()),
                ObjectKind.DATASET_MANIFEST, Path.of(e.manifestPath()), e.manifestBytes(), e.manifestSha256()));
    }

    /**
     * @return a baseline archive (kind {@code SHARD}: the same tar.zst format, so the verifier re-reads it in full and
     *         it counts for gate condition 2), then its member manifest, both in the primary store at
     *         {@code archives/baselines/<model>/<milestone>/<sha256>.tar.zst} / {@code .members.jsonl}
     */
    public static List<UploadTask> forBaseline(BaselineArchived e) {
        return List.of(
                new UploadTask(UploadTask.PRIMARY, ObjectKeys.baselineArchive(e.model(), e.milestone(), e.sha256()),
                        ObjectKind.SHARD, Path.of(e.archivePath()), e.bytes(), e.sha256()),
                new UploadTask(UploadTask.PRIMARY, ObjectKeys.baselineMembers(e.model(), e.milestone(), e.sha256()),
                        ObjectKind.MEMBERS, Path.of(e.membersPath()), e.membersBytes(), e.membersSha256()));
    }

    /**
     * @param manifest the checkpoint manifest read from {@code e.manifestPath()}, its SHA-256 already checked
     * @return each file of the step in the primary store, in manifest order, then (for a key checkpoint)
     *         each file again in the replica store
     * @throws PlanRefusedException when the manifest describes another step or a file name is not a valid key
     */
    public static List<UploadTask> forCheckpoint(CheckpointPublished e, CheckpointManifest manifest) {
        requireSameStep(e, manifest);
        List<String> stores = e.key() ? List.of(UploadTask.PRIMARY, UploadTask.REPLICA) : List.of(UploadTask.PRIMARY);
        List<UploadTask> tasks = new ArrayList<>();
        for (String store : stores) {
            for (MemberEntry file : manifest.files()) {
                tasks.add(new UploadTask(store, checkpointKey(e, file), ObjectKind.CHECKPOINT_FILE,
                        Path.of(e.stepDir()).resolve(file.path()).normalize(), file.bytes(), file.sha256()));
            }
        }
        return tasks;
    }

    /**
     * @param manifest the model manifest read from {@code e.manifestPath()}, its SHA-256 already checked
     * @return each file of the revision in the primary store, in manifest order, then the model manifest last (so a
     *         stored manifest follows its files)
     * @throws PlanRefusedException when the manifest describes another revision or a file name is not a valid key
     */
    public static List<UploadTask> forModel(ModelPublished e, ModelManifest manifest) {
        boolean same = ModelManifest.FORMAT.equals(manifest.format()) && e.model().equals(manifest.model())
                && e.revision().equals(manifest.revision()) && manifest.files() != null;
        if (!same) {
            throw new PlanRefusedException(e.manifestPath(), "model manifest " + e.manifestPath() + " (format "
                    + manifest.format() + ", " + manifest.model() + "/" + manifest.revision()
                    + ") does not describe " + e.assetId());
        }
        List<UploadTask> tasks = new ArrayList<>();
        for (MemberEntry file : manifest.files()) {
            String key;
            try {
                key = ObjectKeys.modelFile(e.model(), e.revision(), file.sha256(), file.path());
            } catch (InvalidEventException | NullPointerException invalid) {
                throw new PlanRefusedException(e.manifestPath(), "model manifest entry " + file.path()
                        + " cannot be stored: " + invalid.getMessage());
            }
            tasks.add(new UploadTask(UploadTask.PRIMARY, key, ObjectKind.MODEL_FILE,
                    Path.of(e.sourceDir()).resolve(file.path()).normalize(), file.bytes(), file.sha256()));
        }
        tasks.add(new UploadTask(UploadTask.PRIMARY, ObjectKeys.modelManifest(e.model(), e.revision()),
                ObjectKind.MODEL_MANIFEST, Path.of(e.manifestPath()), e.manifestBytes(), e.manifestSha256()));
        return tasks;
    }

    private static String checkpointKey(CheckpointPublished e, MemberEntry file) {
        try {
            return ObjectKeys.checkpointFile(e.experiment(), e.run(), e.step(), file.sha256(), file.path());
        } catch (InvalidEventException | NullPointerException invalid) {
            throw new PlanRefusedException(e.manifestPath(), "checkpoint manifest entry " + file.path()
                    + " cannot be stored: " + invalid.getMessage());
        }
    }

    private static void requireSameStep(CheckpointPublished e, CheckpointManifest m) {
        boolean same = CheckpointManifest.FORMAT.equals(m.format()) && e.experiment().equals(m.experiment())
                && e.run().equals(m.run()) && e.step() == m.step() && m.files() != null;
        if (!same) {
            throw new PlanRefusedException(e.manifestPath(), "checkpoint manifest " + e.manifestPath()
                    + " (format " + m.format() + ", " + m.experiment() + "/" + m.run() + "/" + m.step()
                    + ") does not describe step " + e.assetId());
        }
    }
}
