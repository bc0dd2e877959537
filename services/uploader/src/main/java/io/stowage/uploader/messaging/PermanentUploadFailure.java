package io.stowage.uploader.messaging;

import io.stowage.events.ObjectUploadFailed;
import io.stowage.events.StowageEvent;

import java.util.List;

/**
 * Why an incoming record goes to its dead-letter topic after a permanent upload failure; the message (one
 * line) becomes the record's {@code dead-letter-reason} header.
 */
final class PermanentUploadFailure extends RuntimeException {
    private PermanentUploadFailure(String message) {
        super(message, null, false, false);
    }

    /**
     * @param results the events produced for one incoming record
     * @return null when none is a permanent {@link ObjectUploadFailed}; else a failure whose message is
     *         {@code "permanent upload failure (N of M objects): <first reason>"}
     */
    static PermanentUploadFailure of(List<StowageEvent> results) {
        List<ObjectUploadFailed> permanent = results.stream()
                .filter(e -> e instanceof ObjectUploadFailed f && f.permanent())
                .map(ObjectUploadFailed.class::cast).toList();
        if (permanent.isEmpty()) {
            return null;
        }
        String first = permanent.get(0).reason().replace('\n', ' ').replace('\r', ' ');
        return new PermanentUploadFailure("permanent upload failure (" + permanent.size() + " of " + results.size()
                + " objects): " + first);
    }
}
