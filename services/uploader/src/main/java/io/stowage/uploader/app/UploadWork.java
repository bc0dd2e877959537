package io.stowage.uploader.app;

import io.stowage.events.BaselineArchived;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.DatasetSealed;
import io.stowage.events.ModelPublished;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;
import io.stowage.events.manifest.CheckpointManifest;
import io.stowage.uploader.UploaderSettings;
import io.stowage.uploader.domain.CheckpointManifests;
import io.stowage.uploader.domain.PendingStep;
import io.stowage.uploader.domain.PlanRefusedException;
import io.stowage.uploader.domain.UploadEvents;
import io.stowage.uploader.domain.UploadOutcome;
import io.stowage.uploader.domain.UploadPlanner;
import io.stowage.uploader.domain.UploadRoots;
import io.stowage.uploader.domain.UploadTask;
import io.stowage.uploader.persistence.PendingSteps;
import io.stowage.uploader.storage.ObjectWriters;
import io.stowage.uploader.storage.TaskRunner;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Uploads everything one incoming event describes: consumes a {@link ShardBuilt},
 * {@link DatasetSealed}, {@link CheckpointPublished}, {@link BaselineArchived} or {@link ModelPublished} and produces the
 * {@code object.uploaded} / {@code object.upload.failed} events to publish, one per task.
 * Blocking: call it from a worker thread.
 */
@ApplicationScoped
public class UploadWork {
    private static final Logger LOG = Logger.getLogger(UploadWork.class);
    private final TaskRunner runner;
    private final ObjectWriters writers;
    private final PendingSteps pending;
    private final UploadRoots roots;
    private final FilesInFlight inFlight;
    private final long multipartThreshold;
    private final UploadMetrics metrics;
    private final Clock clock = Clock.systemUTC();

    UploadWork(TaskRunner runner, ObjectWriters writers, PendingSteps pending, UploaderSettings settings,
               UploadMetrics metrics) {
        this.metrics = metrics;
        this.runner = runner;
        this.writers = writers;
        this.pending = pending;
        this.roots = new UploadRoots(settings.roots().orElse(List.of()));
        this.inFlight = new FilesInFlight(settings.filesInFlight());
        this.multipartThreshold = settings.multipartThreshold();
    }

    @PreDestroy
    void stop() {
        inFlight.close();
    }

    /**
     * Every local path the event names, and every file it leads to, must lie under the upload roots
     * ({@link UploadRoots}); otherwise nothing is read and one permanent failure names the path (the consumer
     * dead-letters the record). For a checkpoint step whose primary-store files were all stored, also records it as waiting for
     * verification ({@link PendingSteps}), so that its {@code latest} pointer is written once they are verified.
     *
     * Files below the multipart threshold go up {@code stowage.uploader.files-in-flight} at a time (shared by every
     * event); larger ones one after another, each in parallel parts.
     *
     * @return the events to publish, in task order; never throws for a bad file or store
     */
    public List<StowageEvent> upload(StowageEvent event) {
        List<UploadTask> tasks;
        PendingStep step = null;
        try {
            roots.requireConfined(event);
            if (event instanceof CheckpointPublished checkpoint) {
                CheckpointManifest manifest = CheckpointManifests.read(Path.of(checkpoint.manifestPath()),
                        checkpoint.manifestSha256());
                tasks = UploadPlanner.forCheckpoint(checkpoint, manifest);
                step = PendingStep.of(checkpoint, manifest);
            } else if (event instanceof ModelPublished model) {
                tasks = UploadPlanner.forModel(model, CheckpointManifests.readModel(Path.of(model.manifestPath()),
                        model.manifestSha256()));
            } else {
                tasks = plan(event);
            }
            roots.requireConfined(tasks);
        } catch (PlanRefusedException e) {
            LOG.warnf("event %s %s asset %s refused: %s", event.meta().eventId(), event.topic(), event.assetId(),
                    e.getMessage());
            return List.of(UploadEvents.refused(event, e, clock));
        }
        List<UploadOutcome> outcomes = inFlight.runAll(tasks, task -> task.bytes() < multipartThreshold, task -> {
            UploadOutcome outcome = runner.run(task);
            LOG.infof("event %s %s asset %s: %s %s -> %s", event.meta().eventId(), event.topic(), event.assetId(),
                    task.store(), task.key(), outcome);
            return outcome;
        });
        List<StowageEvent> results = new ArrayList<>();
        boolean primaryStored = true;
        for (int i = 0; i < tasks.size(); i++) {
            UploadTask task = tasks.get(i);
            UploadOutcome outcome = outcomes.get(i);
            metrics.record(task, outcome);
            primaryStored &= !(task.store().equals(UploadTask.PRIMARY) && outcome instanceof UploadOutcome.Failed);
            results.add(UploadEvents.of(event, task, writers.forStore(task.store()).bucket(), outcome, clock));
        }
        if (step != null && primaryStored) {
            pending.save(step);
        }
        return results;
    }

    private static List<UploadTask> plan(StowageEvent event) {
        if (event instanceof ShardBuilt shard) {
            return UploadPlanner.forShard(shard);
        }
        if (event instanceof DatasetSealed sealed) {
            return UploadPlanner.forDataset(sealed);
        }
        if (event instanceof BaselineArchived baseline) {
            return UploadPlanner.forBaseline(baseline);
        }
        throw new IllegalArgumentException("the uploader does not consume " + event.topic());
    }
}
