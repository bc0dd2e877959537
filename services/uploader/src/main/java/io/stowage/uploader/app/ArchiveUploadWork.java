package io.stowage.uploader.app;

import io.stowage.events.ArchivePublished;
import io.stowage.events.StowageEvent;
import io.stowage.uploader.UploaderSettings;
import io.stowage.uploader.domain.ArchivePlanner;
import io.stowage.uploader.domain.PlanRefusedException;
import io.stowage.uploader.domain.UploadEvents;
import io.stowage.uploader.domain.UploadOutcome;
import io.stowage.uploader.domain.UploadRoots;
import io.stowage.uploader.domain.UploadTask;
import io.stowage.uploader.storage.ObjectWriters;
import io.stowage.uploader.storage.TaskRunner;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.List;

/**
 * Uploads a milestone archive: consumes an {@link ArchivePublished} and produces the one {@code object.uploaded}
 * (kind {@code ARCHIVE}, or {@code object.upload.failed}) to publish, through the same {@link TaskRunner} as every
 * other file (skip when the same SHA-256 is at the key, a changed file refused). Blocking: call it from a worker thread.
 */
@ApplicationScoped
public class ArchiveUploadWork {
    private static final Logger LOG = Logger.getLogger(ArchiveUploadWork.class);
    private final TaskRunner runner;
    private final ObjectWriters writers;
    private final UploadRoots roots;
    private final Clock clock = Clock.systemUTC();

    ArchiveUploadWork(TaskRunner runner, ObjectWriters writers, UploaderSettings settings) {
        this.runner = runner;
        this.writers = writers;
        this.roots = new UploadRoots(settings.roots().orElse(List.of()));
    }

    /**
     * @return the event to publish; never throws for a bad file or store. An archive path outside the upload roots
     *         ({@link UploadRoots}) is not read: the one event is a permanent failure naming it.
     */
    public List<StowageEvent> upload(ArchivePublished event) {
        UploadTask task = ArchivePlanner.forArchive(event);
        try {
            roots.requireConfined(event);
            roots.requireConfined(List.of(task));
        } catch (PlanRefusedException e) {
            LOG.warnf("event %s %s asset %s refused: %s", event.meta().eventId(), event.topic(), event.assetId(),
                    e.getMessage());
            return List.of(UploadEvents.refused(event, e, clock));
        }
        UploadOutcome outcome = runner.run(task);
        LOG.infof("event %s %s asset %s: %s %s -> %s", event.meta().eventId(), event.topic(), event.assetId(),
                task.store(), task.key(), outcome);
        return List.of(UploadEvents.of(event, task, writers.forStore(task.store()).bucket(), outcome, clock));
    }
}
