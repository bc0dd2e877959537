package io.stowage.uploader.domain;

import io.stowage.events.CheckpointPublished;
import io.stowage.events.ObjectVerified;
import io.stowage.events.manifest.CheckpointManifest;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.events.manifest.LatestCheckpoint;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A checkpoint step whose files are all in the primary store, waiting for their verification:
 * consumes {@link ObjectVerified} results for its objects and produces the run's
 * {@link LatestCheckpoint} pointer once every file was read back in full with its SHA-256 and no later result for it
 * is bad ({@link #verdict}, applied in order by {@code PendingSteps}). Immutable; pure.
 *
 * @param files         the step's files in the primary store (key, size, SHA-256 as uploaded)
 * @param verifiedKeys  keys read back in full with the expected size and SHA-256, and with no bad result since
 */
public record PendingStep(String assetId, String experiment, String run, long step,
                          List<LatestCheckpoint.File> files, Set<String> verifiedKeys) {

    public PendingStep {
        files = List.copyOf(files);
        verifiedKeys = Set.copyOf(verifiedKeys);
    }

    /**
     * @param manifest the step's checkpoint manifest (already checked against the event)
     * @return the step with none of its primary-store files verified yet
     * @throws PlanRefusedException when a file name is not a valid key (as {@link UploadPlanner#forCheckpoint})
     */
    public static PendingStep of(CheckpointPublished e, CheckpointManifest manifest) {
        List<LatestCheckpoint.File> files = new ArrayList<>();
        for (UploadTask task : UploadPlanner.forCheckpoint(e, manifest)) {
            if (task.store().equals(UploadTask.PRIMARY)) {
                String path = Path.of(e.stepDir()).relativize(task.localPath()).toString().replace('\\', '/');
                files.add(new LatestCheckpoint.File(path, task.key(), task.bytes(), task.sha256()));
            }
        }
        files.sort(Comparator.comparing(LatestCheckpoint.File::path));
        return new PendingStep(e.assetId(), e.experiment(), e.run(), e.step(), files, Set.of());
    }

    /** @return true when {@code result} is about this step's asset in the primary store (its key may still be another) */
    public boolean concerns(ObjectVerified result) {
        return assetId.equals(result.assetId()) && UploadTask.PRIMARY.equals(result.store());
    }

    /**
     * What {@code result} (for this file's key in the primary store, see {@link #concerns}) makes of one file: an OK
     * full read ({@link VerifyMethod#FULL_READ}) with the uploaded size and SHA-256 marks it verified; an OK HEAD
     * changes nothing (it proves size and metadata, not the bytes); any other result (a HEAD or full read that is not
     * OK, or one for other bytes) unmarks it. Constant time: callers index the files by key.
     *
     * @return {@code true}: verified (an OK full read with the uploaded size and SHA-256); {@code false}: not verified
     *         (a HEAD or full read that is not OK, or one for other bytes); empty: no change (an OK HEAD)
     */
    public static Optional<Boolean> verdict(LatestCheckpoint.File file, ObjectVerified result) {
        boolean ok = result.result() == VerifyResult.OK && file.sha256().equals(result.expectedSha256())
                && file.bytes() == result.expectedBytes();
        if (ok && result.method() != VerifyMethod.FULL_READ) {
            return Optional.empty(); // a HEAD proves size and metadata only: the pointer waits for the full read
        }
        return Optional.of(ok);
    }

    /** @return true when every file's newest result is OK */
    public boolean verified() {
        return files.stream().allMatch(f -> verifiedKeys.contains(f.key()));
    }

    /**
     * @param pointedStep the step the run's pointer names now, or -1 when it has none
     * @return the new pointer when this step is verified and not older than the current one; empty otherwise
     */
    public Optional<LatestCheckpoint> pointer(long pointedStep, Instant now) {
        if (!verified() || step < pointedStep) {
            return Optional.empty();
        }
        return Optional.of(new LatestCheckpoint(LatestCheckpoint.FORMAT, experiment, run, step, assetId, files,
                now.toString()));
    }
}
