package io.stowage.uploader.storage;

import io.stowage.events.ArchivePublished;
import io.stowage.events.StowageEvent;
import io.stowage.uploader.domain.ArchivePlanner;
import io.stowage.uploader.domain.UploadEvents;
import io.stowage.uploader.domain.UploadOutcome;
import io.stowage.uploader.domain.UploadTask;
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
    private final Clock clock = Clock.systemUTC();

    ArchiveUploadWork(TaskRunner runner, ObjectWriters writers) {
        this.runner = runner;
        this.writers = writers;
    }

    /** @return the event to publish; never throws for a bad file or store */
    public List<StowageEvent> upload(ArchivePublished event) {
        UploadTask task = ArchivePlanner.forArchive(event);
        UploadOutcome outcome = runner.run(task);
        LOG.infof("event %s %s asset %s: %s %s -> %s", event.meta().eventId(), event.topic(), event.assetId(),
                task.store(), task.key(), outcome);
        return List.of(UploadEvents.of(event, task, writers.forStore(task.store()).bucket(), outcome, clock));
    }
}
