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
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

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
     * {@link #upload(StowageEvent, Predicate)} without sending anything early: every event comes back unsent.
     *
     * @return the events to publish, in task order; never throws for a bad file or store
     */
    public List<StowageEvent> upload(StowageEvent event) {
        return upload(event, sent -> false).events();
    }

    /**
     * Every local path the event names, and every file it leads to, must lie under the upload roots
     * ({@link UploadRoots}); otherwise nothing is read and one permanent failure names the path (the consumer
     * dead-letters the record). For a checkpoint step, records it as waiting for verification ({@link PendingSteps})
     * before its first file goes up, so that a result that comes back while other files are still uploading is
     * counted and its {@code latest} pointer is written once they are all verified; a step already waiting (a
     * redelivered event, a retry after a failed upload) keeps the results it has. A step whose upload failed stays
     * waiting: its pointer can only be written once every file was stored and verified, by a later delivery.
     * <p>
     * Files below the multipart threshold go up {@code stowage.uploader.files-in-flight} at a time (shared by every
     * event); larger ones one after another, each in parallel parts. Each {@code object.uploaded} of a stored or
     * already-stored object is handed to {@code sendNow} as soon as its upload ends (on the thread that uploaded it),
     * so that verification of the first files overlaps the upload of the others; {@code sendNow} answers whether the
     * broker acknowledged it. Failures, and events {@code sendNow} could not send, are returned unsent, to be
     * published with the record's outcome.
     *
     * @param sendNow sends one event and waits for the broker; true when acknowledged, false to leave it for later;
     *                must be thread-safe
     * @return every event of the record in task order (what decides the outcome), and those still to be published
     */
    public Uploaded upload(StowageEvent event, Predicate<StowageEvent> sendNow) {
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
            List<StowageEvent> refused = List.of(UploadEvents.refused(event, e, clock));
            return new Uploaded(refused, refused);
        }
        if (step != null) {
            pending.saveIfAbsent(step);
        }
        Set<String> sent = ConcurrentHashMap.newKeySet();
        List<StowageEvent> results = inFlight.runAll(tasks, task -> task.bytes() < multipartThreshold, task -> {
            UploadOutcome outcome = runner.run(task);
            LOG.infof("event %s %s asset %s: %s %s -> %s", event.meta().eventId(), event.topic(), event.assetId(),
                    task.store(), task.key(), outcome);
            metrics.record(task, outcome);
            StowageEvent result = UploadEvents.of(event, task, writers.forStore(task.store()).bucket(), outcome, clock);
            if (!(outcome instanceof UploadOutcome.Failed) && sendEarly(sendNow, result)) {
                sent.add(result.meta().eventId());
            }
            return result;
        });
        return new Uploaded(results, results.stream().filter(r -> !sent.contains(r.meta().eventId())).toList());
    }

    private static boolean sendEarly(Predicate<StowageEvent> sendNow, StowageEvent result) {
        try {
            return sendNow.test(result);
        } catch (RuntimeException e) {
            LOG.warnf("event %s %s asset %s not sent as its upload ended (%s): sent with the record's outcome instead",
                    result.meta().eventId(), result.topic(), result.assetId(), e.toString());
            return false;
        }
    }

    /**
     * The events of one record.
     *
     * @param events every {@code object.uploaded} / {@code object.upload.failed}, in task order
     * @param unsent those not yet acknowledged by the broker, in task order
     */
    public record Uploaded(List<StowageEvent> events, List<StowageEvent> unsent) {
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
