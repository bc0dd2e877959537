package io.stowage.uploader.storage;

import io.stowage.events.CheckpointPublished;
import io.stowage.events.DatasetSealed;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;
import io.stowage.uploader.domain.PlanRefusedException;
import io.stowage.uploader.domain.UploadEvents;
import io.stowage.uploader.domain.UploadOutcome;
import io.stowage.uploader.domain.UploadPlanner;
import io.stowage.uploader.domain.UploadTask;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Uploads everything one incoming event describes: consumes a {@link ShardBuilt},
 * {@link DatasetSealed} or {@link CheckpointPublished} and produces the
 * {@code object.uploaded} / {@code object.upload.failed} events to publish, one per task.
 * Blocking: call it from a worker thread.
 */
@ApplicationScoped
public class UploadWork {
    private static final Logger LOG = Logger.getLogger(UploadWork.class);
    private final TaskRunner runner;
    private final ObjectWriters writers;
    private final Clock clock = Clock.systemUTC();

    UploadWork(TaskRunner runner, ObjectWriters writers) {
        this.runner = runner;
        this.writers = writers;
    }

    /** @return the events to publish, in task order; never throws for a bad file or store */
    public List<StowageEvent> upload(StowageEvent event) {
        List<UploadTask> tasks;
        try {
            tasks = plan(event);
        } catch (PlanRefusedException e) {
            LOG.warnf("event %s %s asset %s refused: %s", event.meta().eventId(), event.topic(), event.assetId(),
                    e.getMessage());
            return List.of(UploadEvents.refused(event, e, clock));
        }
        List<StowageEvent> results = new ArrayList<>();
        for (UploadTask task : tasks) {
            UploadOutcome outcome = runner.run(task);
            LOG.infof("event %s %s asset %s: %s %s -> %s", event.meta().eventId(), event.topic(), event.assetId(),
                    task.store(), task.key(), outcome);
            results.add(UploadEvents.of(event, task, writers.forStore(task.store()).bucket(), outcome, clock));
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
        if (event instanceof CheckpointPublished checkpoint) {
            return UploadPlanner.forCheckpoint(checkpoint,
                    CheckpointManifests.read(Path.of(checkpoint.manifestPath()), checkpoint.manifestSha256()));
        }
        throw new IllegalArgumentException("the uploader does not consume " + event.topic());
    }
}
