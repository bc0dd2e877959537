package io.stowage.ledger.domain;

import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.VerifyMethod;

import java.time.Instant;

/**
 * Folds object.uploaded and object.verified events into an {@link ObjectRecord}. The newest event
 * (by event time) wins per concern, so a late redelivery of an old result cannot hide a newer one;
 * a verification seen before its upload creates the object from the verifier's expectation.
 */
public final class ObjectProjection {
    private ObjectProjection() {
    }

    /** @param current the stored object at the event's store, bucket and key, or null */
    public static ObjectRecord apply(ObjectRecord current, ObjectUploaded e) {
        Instant time = e.meta().time();
        if (current != null && current.uploadedAt() != null && time.isBefore(current.uploadedAt())) {
            return current;
        }
        return new ObjectRecord(e.store(), e.bucket(), e.key(), e.assetId(), e.kind(), e.bytes(), e.sha256(),
                e.etag(), e.localPath(), time,
                current == null ? null : current.headResult(), current == null ? null : current.headAt(),
                current == null ? null : current.fullReadResult(), current == null ? null : current.fullReadAt(),
                e.meta().eventId(), current == null ? null : current.headEventId(),
                current == null ? null : current.fullReadEventId());
    }

    /** @param current the stored object at the event's store, bucket and key, or null */
    public static ObjectRecord apply(ObjectRecord current, ObjectVerified e) {
        ObjectRecord o = current != null ? current : new ObjectRecord(e.store(), e.bucket(), e.key(), e.assetId(),
                e.kind(), e.expectedBytes(), e.expectedSha256(), null, null, null, null, null, null, null, null, null, null);
        Instant time = e.meta().time();
        if (e.method() == VerifyMethod.HEAD) {
            if (o.headAt() != null && time.isBefore(o.headAt())) {
                return o;
            }
            return new ObjectRecord(o.store(), o.bucket(), o.key(), o.assetId(), o.kind(), o.bytes(), o.sha256(),
                    o.etag(), o.localPath(), o.uploadedAt(), e.result(), time, o.fullReadResult(), o.fullReadAt(),
                    o.uploadedEventId(), e.meta().eventId(), o.fullReadEventId());
        }
        if (o.fullReadAt() != null && time.isBefore(o.fullReadAt())) {
            return o;
        }
        return new ObjectRecord(o.store(), o.bucket(), o.key(), o.assetId(), o.kind(), o.bytes(), o.sha256(),
                o.etag(), o.localPath(), o.uploadedAt(), o.headResult(), o.headAt(), e.result(), time,
                o.uploadedEventId(), o.headEventId(), e.meta().eventId());
    }
}
