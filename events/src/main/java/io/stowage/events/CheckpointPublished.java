package io.stowage.events;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A checkpoint step directory is complete (renamed into place) and its checkpoint manifest
 * (files, bytes, SHA-256 at publish time) is written. Produced by the CLI on
 * {@link Topics#CHECKPOINT_PUBLISHED}; consumed by uploader and ledger.
 *
 * @param stepDir        absolute path of the step directory
 * @param manifestPath   absolute local path of the checkpoint manifest ({@link io.stowage.events.manifest.CheckpointManifest}), outside stepDir
 * @param manifestSha256 its SHA-256
 * @param fileCount      number of files in the step directory
 * @param totalBytes     their total size in bytes
 * @param key            a key checkpoint: gets a second copy in the replica store (gate condition 4)
 * @param tags           free labels such as "best"; never null
 * @param provenance     code commit, config hash, data manifest hash; never null, fields may be
 * @param metrics        the step's training metrics by name (e.g. {@code val_loss} → 0.42), finite numbers, sorted by
 *                       name; from {@code --metric NAME=VALUE} and the step's {@code metrics.json}; empty, never null
 *                       (an event written before the field existed decodes with none)
 * @param retention      the retention policy the run's capsule ({@code experiment.json} beside the step directory, key
 *                       {@code retention}) stated when the step was published, in the capsule's field names; null when
 *                       it stated none (or could not be read: the CLI then warns). The ledger takes the newest
 *                       published step's policy as the run's policy, which the provider-adapter's periodic sweep applies
 */
public record CheckpointPublished(EventMeta meta, String experiment, String run, long step, String stepDir,
                                  String manifestPath, String manifestSha256, int fileCount, long totalBytes,
                                  boolean key, List<String> tags, Provenance provenance,
                                  Map<String, Double> metrics, RetentionDecided.Policy retention)
        implements StowageEvent {

    /** Absent metrics (an older event) are none; the map is copied sorted by name. */
    public CheckpointPublished {
        metrics = metrics == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(metrics));
    }

    /** An event without a retention policy. */
    public CheckpointPublished(EventMeta meta, String experiment, String run, long step, String stepDir,
                               String manifestPath, String manifestSha256, int fileCount, long totalBytes,
                               boolean key, List<String> tags, Provenance provenance, Map<String, Double> metrics) {
        this(meta, experiment, run, step, stepDir, manifestPath, manifestSha256, fileCount, totalBytes, key, tags,
                provenance, metrics, null);
    }

    /** An event without metrics (the shape before they were recorded). */
    public CheckpointPublished(EventMeta meta, String experiment, String run, long step, String stepDir,
                               String manifestPath, String manifestSha256, int fileCount, long totalBytes,
                               boolean key, List<String> tags, Provenance provenance) {
        this(meta, experiment, run, step, stepDir, manifestPath, manifestSha256, fileCount, totalBytes, key, tags,
                provenance, Map.of(), null);
    }

    /** As {@link #of(EventMeta, String, String, long, String, String, String, int, long, boolean, List, Provenance, Map)}
     *  with no metrics. */
    public static CheckpointPublished of(EventMeta meta, String experiment, String run, long step, String stepDir,
                                         String manifestPath, String manifestSha256, int fileCount, long totalBytes,
                                         boolean key, List<String> tags, Provenance provenance) {
        return of(meta, experiment, run, step, stepDir, manifestPath, manifestSha256, fileCount, totalBytes, key, tags,
                provenance, Map.of());
    }

    /** As {@link #of(EventMeta, String, String, long, String, String, String, int, long, boolean, List, Provenance, Map,
     *  RetentionDecided.Policy)} with no retention policy. */
    public static CheckpointPublished of(EventMeta meta, String experiment, String run, long step, String stepDir,
                                         String manifestPath, String manifestSha256, int fileCount, long totalBytes,
                                         boolean key, List<String> tags, Provenance provenance,
                                         Map<String, Double> metrics) {
        return of(meta, experiment, run, step, stepDir, manifestPath, manifestSha256, fileCount, totalBytes, key, tags,
                provenance, metrics, null);
    }

    /**
     * @param metrics   metric name (same characters as names) → finite value
     * @param retention the capsule's retention policy; null for none. Only its shape is checked here (counts positive,
     *                  mode min or max); the rules check the rest when the policy is applied
     * @throws InvalidEventException naming the first field that is missing or malformed
     */
    public static CheckpointPublished of(EventMeta meta, String experiment, String run, long step, String stepDir,
                                         String manifestPath, String manifestSha256, int fileCount, long totalBytes,
                                         boolean key, List<String> tags, Provenance provenance,
                                         Map<String, Double> metrics, RetentionDecided.Policy retention) {
        CheckpointPublished event = new CheckpointPublished(meta, experiment, run, step, stepDir, manifestPath,
                manifestSha256, fileCount, totalBytes, key, List.copyOf(tags), provenance, metrics, retention);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.checkpoint(experiment, run, step);
    }

    @Override
    public String topic() {
        return Topics.CHECKPOINT_PUBLISHED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireSegment("experiment", experiment);
        Validation.requireSegment("run", run);
        Validation.requireNonNegative("step", step);
        Validation.requireText("stepDir", stepDir);
        Validation.requireText("manifestPath", manifestPath);
        Validation.requireSha256("manifestSha256", manifestSha256);
        Validation.requireNonNegative("fileCount", fileCount);
        Validation.requireNonNegative("totalBytes", totalBytes);
        Validation.require(tags != null, "tags is missing");
        Validation.require(provenance != null, "provenance is missing");
        metrics.forEach((name, value) -> {
            Validation.requireSegment("metric name", name);
            Validation.require(value != null && Double.isFinite(value), "metric " + name + " is not a finite number");
        });
        if (retention != null) {
            for (Integer count : new Integer[]{retention.keepLast(), retention.keepBest(), retention.keepEvery()}) {
                Validation.require(count == null || count > 0, "retention counts must be positive");
            }
            Validation.require(retention.mode() == null || retention.mode().equals("min") || retention.mode().equals("max"),
                    "retention mode must be min or max");
        }
    }
}
