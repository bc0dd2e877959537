package io.stowage.cli.checkpoint;

import io.stowage.cli.CliException;
import io.stowage.cli.Inputs;
import io.stowage.events.AssetIds;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.InvalidEventException;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Provenance;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.CheckpointManifest;
import io.stowage.events.manifest.MemberEntry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Turns a complete checkpoint step directory into a checkpoint manifest (every file's path,
 * bytes and SHA-256 now) written under the staging directory, and the
 * {@link CheckpointPublished} event that references it. Provenance comes from the run's experiment
 * capsule ({@code experiment.json} beside the step directory) and {@code provenance.json} in it
 * ({@link ExperimentCapsule}).
 */
public final class CheckpointPublisher {
    /** The file in a step directory that holds the step's provenance (the run's capsule fills the rest). */
    public static final String PROVENANCE_FILE = ExperimentCapsule.STEP_FILE;

    private final Path stagingDir;
    private final Clock clock;

    public CheckpointPublisher(Path stagingDir, Clock clock) {
        this.stagingDir = stagingDir;
        this.clock = clock;
    }

    /**
     * The event to send plus warnings for the user (e.g. provenance that can never pass the gate).
     *
     * @param keyReasons why the step is a key checkpoint ({@link KeyCheckpoints}); empty when it is not
     */
    public record Prepared(CheckpointPublished event, CheckpointManifest manifest, List<String> warnings,
                           List<String> keyReasons) {
    }

    /**
     * As {@link #prepare(Path, String, String, long, boolean, List, boolean, Long)} with no {@code --last} and no
     * every-Nth-step policy.
     */
    public Prepared prepare(Path stepDir, String experiment, String run, long step, boolean key, List<String> tags) {
        return prepare(stepDir, experiment, run, step, key, tags, false, null);
    }

    /**
     * Hashes every file of {@code stepDir} and writes the manifest. The step is a key checkpoint when
     * {@link KeyCheckpoints} gives a reason: {@code key}, the tag {@code best}, {@code last} or the capsule's
     * {@code finalStep} equal to {@code step}, or {@code keyEvery} dividing it.
     *
     * @param last     the caller knows this is the run's last step
     * @param keyEvery every step divisible by it is a key checkpoint; null for none
     *
     * @throws CliException (exit 2) for a missing or unreadable directory, a symlink, an empty
     *                      directory, or an invalid name; (exit 1) when the manifest cannot be written
     */
    public Prepared prepare(Path stepDir, String experiment, String run, long step, boolean flagged, List<String> tags,
                            boolean last, Long keyEvery) {
        return prepare(stepDir, experiment, run, step, flagged, tags, last, keyEvery, List.of());
    }

    /**
     * As {@link #prepare(Path, String, String, long, boolean, List, boolean, Long)}, with the step's metrics: the
     * step directory's {@value StepMetrics#FILE} merged with {@code metricOptions} ({@code NAME=VALUE}, which win)
     * go into the event ({@link StepMetrics}).
     *
     * @throws CliException (exit 2) for a malformed metric, as well as for what the shorter form refuses
     */
    public Prepared prepare(Path stepDir, String experiment, String run, long step, boolean flagged, List<String> tags,
                            boolean last, Long keyEvery, List<String> metricOptions) {
        Path dir = stepDir.toAbsolutePath().normalize();
        String assetId;
        try {
            assetId = AssetIds.checkpoint(experiment, run, step);
            for (String tag : tags) {
                io.stowage.events.Validation.requireSegment("tag", tag);
            }
        } catch (InvalidEventException e) {
            throw new CliException(CliException.USAGE, e.getMessage());
        }
        Inputs.requireReadableDirectory("checkpoint directory", dir);
        java.util.Map<String, Double> metrics = StepMetrics.of(dir, metricOptions);
        List<MemberEntry> files = hashFiles(dir);
        if (files.isEmpty()) {
            throw new CliException(CliException.USAGE, "checkpoint directory " + dir + " holds no files");
        }
        for (MemberEntry file : files) {
            try {
                ObjectKeys.checkpointFile(experiment, run, step, file.sha256(), file.path());
            } catch (InvalidEventException e) {
                throw new CliException(CliException.USAGE, "cannot publish " + file.path() + ": " + e.getMessage());
            }
        }
        Provenance provenance = ExperimentCapsule.read(dir);
        Long finalStep = ExperimentCapsule.finalStep(dir);
        List<String> keyReasons = KeyCheckpoints.reasons(step, flagged, tags, last || Long.valueOf(step).equals(finalStep),
                keyEvery);
        boolean key = !keyReasons.isEmpty();
        List<String> warnings = new ArrayList<>();
        if (!provenance.complete()) {
            warnings.add(assetId + " lacks " + String.join(", ", provenance.missing()) + " (neither "
                    + ExperimentCapsule.CAPSULE_FILE + " beside the step nor " + PROVENANCE_FILE
                    + " in it names them): it will be archived, but the gate can never release it");
        }
        if (Boolean.FALSE.equals(provenance.codeClean())) {
            warnings.add(assetId + " was trained from a working tree with uncommitted changes at "
                    + provenance.codeCommit() + ": the commit alone does not reproduce it");
        }
        io.stowage.events.RetentionDecided.Policy retention = null;
        try {
            io.stowage.cli.retention.domain.RetentionPolicy policy = io.stowage.cli.retention.CapsuleRetention.read(dir.getParent());
            if (policy.hasRule()) {
                retention = io.stowage.cli.retention.domain.RetentionPolicies.fields(policy);
            }
        } catch (CliException e) {
            // a capsule typo must not stop a checkpoint from being archived; the run then has no sweep policy
            warnings.add(assetId + ": the capsule's retention policy is not recorded, so the periodic sweep leaves the"
                    + " run alone: " + e.getMessage());
        }
        CheckpointManifest manifest = new CheckpointManifest(CheckpointManifest.FORMAT, experiment, run, step,
                dir.toString(), key, List.copyOf(tags), provenance, files);
        Path manifestPath = stagingDir.resolve("checkpoints").resolve(experiment).resolve(run)
                .resolve(ObjectKeys.paddedStep(step) + ".json");
        String manifestSha = writeManifest(manifest, manifestPath);
        long total = files.stream().mapToLong(MemberEntry::bytes).sum();
        CheckpointPublished event = CheckpointPublished.of(EventMeta.first(assetId, clock), experiment, run, step,
                dir.toString(), manifestPath.toString(), manifestSha, files.size(), total, key, tags, provenance, metrics,
                retention);
        return new Prepared(event, manifest, warnings, keyReasons);
    }

    /**
     * @return every regular file under {@code dir} with its path ('/'-separated, relative), bytes and SHA-256 now,
     *         sorted by path; also used by {@code stowage model publish}
     * @throws CliException (exit 2) for a symlink, or a FIFO, socket or device, under {@code dir} (named in the
     *                      message; nothing is skipped), or a directory that cannot be read
     */
    public static List<MemberEntry> hashFiles(Path dir) {
        List<MemberEntry> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path path : (Iterable<Path>) walk.sorted()::iterator) {
                if (Files.isSymbolicLink(path)) {
                    throw new CliException(CliException.USAGE, "checkpoint holds a symlink, which Stowage does not archive: " + path);
                }
                if (path.toString().indexOf(io.stowage.shardformat.MemberName.REPLACEMENT) >= 0) {
                    throw new CliException(CliException.USAGE, "checkpoint holds a name that is not valid UTF-8 (it reads"
                            + " as " + path + "): its recorded name would not open it nor restore it; rename it");
                }
                if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                    String rel = dir.relativize(path).toString().replace('\\', '/');
                    files.add(new MemberEntry(rel, Files.size(path), Sha256.of(path)));
                } else if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                    // skipped silently, it would only be found by the gate, which denies the release (special-file)
                    throw new CliException(CliException.USAGE, "checkpoint holds " + path + ", which is neither a regular"
                            + " file nor a directory (a FIFO, socket or device): Stowage does not archive it");
                }
            }
        } catch (IOException e) {
            throw new CliException(CliException.USAGE, "cannot read checkpoint directory " + dir + ": " + e.getMessage(), e);
        }
        files.sort((a, b) -> a.path().compareTo(b.path()));
        return files;
    }

    private static String writeManifest(CheckpointManifest manifest, Path target) {
        try {
            return writeJson(EventCodec.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(manifest), target);
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot write checkpoint manifest " + target + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes {@code json} to {@code target} through a temporary name renamed into place; also used by
     * {@code stowage model publish}.
     *
     * @return the SHA-256 of {@code json}
     * @throws CliException (exit 1) when it cannot be written
     */
    public static String writeJson(byte[] json, Path target) {
        try {
            Files.createDirectories(target.getParent());
            Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
            Files.write(tmp, json);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return Sha256.of(json);
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot write manifest " + target + ": " + e.getMessage(), e);
        }
    }
}
