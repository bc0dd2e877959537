package io.stowage.uploader.messaging;

import io.stowage.events.ObjectUploadFailed;
import io.stowage.events.StowageEvent;
import io.stowage.messaging.Outcome;

import java.util.List;

/**
 * Turns the events produced for one incoming record ({@code object.uploaded} / {@code object.upload.failed}) into its
 * {@link Outcome}: permanent when any upload failed permanently, else transient when any failed transiently (the
 * record is tried again), else done. The reason (one line) is what {@code dead-letter-reason} records.
 */
final class UploadResults {
    private UploadResults() {
    }

    /**
     * @param results the events of one record, all published whatever the verdict
     * @return reason {@code "permanent upload failure (N of M objects): <first reason>"} or
     *         {@code "transient upload failure (N of M objects): <first reason>"}
     */
    static Outcome of(List<StowageEvent> results) {
        return of(results, results);
    }

    /**
     * @param results every event of one record: they decide the verdict and its reason
     * @param unsent  those of {@code results} not yet published: the outcome's events
     * @return as {@link #of(List)}, publishing only {@code unsent}
     */
    static Outcome of(List<StowageEvent> results, List<StowageEvent> unsent) {
        List<ObjectUploadFailed> failed = results.stream().filter(ObjectUploadFailed.class::isInstance)
                .map(ObjectUploadFailed.class::cast).toList();
        List<ObjectUploadFailed> permanent = failed.stream().filter(ObjectUploadFailed::permanent).toList();
        if (!permanent.isEmpty()) {
            return Outcome.permanent(unsent, reason("permanent", permanent, results));
        }
        if (!failed.isEmpty()) {
            return Outcome.transientFailure(unsent, reason("transient", failed, results));
        }
        return Outcome.done(unsent);
    }

    private static String reason(String kind, List<ObjectUploadFailed> failed, List<StowageEvent> results) {
        return kind + " upload failure (" + failed.size() + " of " + results.size() + " objects): "
                + failed.get(0).reason();
    }
}
