package io.stowage.uploader.domain;

import io.stowage.events.EventMeta;
import io.stowage.events.ObjectUploadFailed;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.StowageEvent;

import java.time.Clock;

/**
 * Turns the outcome of an {@link UploadTask} into the event to publish: {@link ObjectUploaded} when
 * the object is stored (or was already there), {@link ObjectUploadFailed} otherwise. Every event is
 * caused by the incoming event and keeps its correlation id.
 */
public final class UploadEvents {
    private UploadEvents() {
    }

    /** @param bucket the bucket of the task's store */
    public static StowageEvent of(StowageEvent cause, UploadTask task, String bucket, UploadOutcome outcome,
                                  Clock clock) {
        EventMeta meta = EventMeta.causedBy(cause, clock);
        String localPath = task.localPath().toString();
        if (outcome instanceof UploadOutcome.Stored stored) {
            return ObjectUploaded.of(meta, cause.assetId(), task.store(), bucket, task.key(), task.kind(),
                    task.bytes(), task.sha256(), stored.etag(), localPath, stored.skipped());
        }
        UploadOutcome.Failed failed = (UploadOutcome.Failed) outcome;
        return ObjectUploadFailed.of(meta, cause.assetId(), task.store(), task.key(), localPath, failed.reason(),
                failed.permanent());
    }

    /** @return a permanent failure for an event whose files could not be planned at all */
    public static ObjectUploadFailed refused(StowageEvent cause, PlanRefusedException refusal, Clock clock) {
        return ObjectUploadFailed.of(EventMeta.causedBy(cause, clock), cause.assetId(), UploadTask.PRIMARY, null,
                refusal.localPath(), refusal.getMessage(), true);
    }
}
