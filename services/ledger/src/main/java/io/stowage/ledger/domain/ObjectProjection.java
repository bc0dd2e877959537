package io.stowage.ledger.domain;

import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.VerifyMethod;

import java.time.Instant;

/**
 * Folds object.uploaded and object.verified events into an {@link ObjectRecord}, in the ledger's order (the order
 * events are appended to the chain, which the caller applies them in; each event id once). "Newest" is the last
 * one applied, never the producer's clock: event times of different producers are not comparable, and the topics
 * keep each asset's events in the order its producer sent them.
 *
 * <p>Results belong to the object's content (key, bytes, SHA-256), not to the key alone: an upload with other
 * bytes or another SHA-256 than the row holds (a re-upload of a mutable key such as a {@code manifest.json})
 * starts with no results, and a verification whose expectation differs from the row's content speaks of another
 * upload and changes nothing. A verification seen before its upload creates the object from the verifier's
 * expectation.
 */
public final class ObjectProjection {
    private ObjectProjection() {
    }

    /** @param current the stored object at the event's store, bucket and key, or null */
    public static ObjectRecord apply(ObjectRecord current, ObjectUploaded e) {
        Instant time = e.meta().time();
        boolean keep = current != null && sameContent(current, e.bytes(), e.sha256());
        return new ObjectRecord(e.store(), e.bucket(), e.key(), e.assetId(), e.kind(), e.bytes(), e.sha256(),
                e.etag(), e.localPath(), time,
                keep ? current.headResult() : null, keep ? current.headAt() : null,
                keep ? current.fullReadResult() : null, keep ? current.fullReadAt() : null,
                e.meta().eventId(), keep ? current.headEventId() : null, keep ? current.fullReadEventId() : null);
    }

    /** @param current the stored object at the event's store, bucket and key, or null */
    public static ObjectRecord apply(ObjectRecord current, ObjectVerified e) {
        ObjectRecord o = current != null ? current : new ObjectRecord(e.store(), e.bucket(), e.key(), e.assetId(),
                e.kind(), e.expectedBytes(), e.expectedSha256(), null, null, null, null, null, null, null, null, null, null);
        if (!sameContent(o, e.expectedBytes(), e.expectedSha256())) {
            return o;
        }
        Instant time = e.meta().time();
        if (e.method() == VerifyMethod.HEAD) {
            return new ObjectRecord(o.store(), o.bucket(), o.key(), o.assetId(), o.kind(), o.bytes(), o.sha256(),
                    o.etag(), o.localPath(), o.uploadedAt(), e.result(), time, o.fullReadResult(), o.fullReadAt(),
                    o.uploadedEventId(), e.meta().eventId(), o.fullReadEventId());
        }
        return new ObjectRecord(o.store(), o.bucket(), o.key(), o.assetId(), o.kind(), o.bytes(), o.sha256(),
                o.etag(), o.localPath(), o.uploadedAt(), o.headResult(), o.headAt(), e.result(), time,
                o.uploadedEventId(), o.headEventId(), e.meta().eventId());
    }

    // a null SHA-256 on either side cannot tell two contents apart: then the sizes decide
    private static boolean sameContent(ObjectRecord o, long bytes, String sha256) {
        return o.bytes() == bytes && (o.sha256() == null || sha256 == null || o.sha256().equals(sha256));
    }
}
