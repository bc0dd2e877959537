package io.stowage.verifier.domain;

import io.stowage.events.EventMeta;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ledger.ScrubCandidate;

/**
 * Consumes an object the ledger handed to the rolling scrub and produces the expectation {@link Verdicts} judges a
 * re-read against: the upload the ledger recorded (store, bucket, key, asset, kind, bytes, SHA-256), under the
 * scrub tick's meta. It is never published; only the {@code object.verified} result is.
 */
public final class ScrubExpectation {
    /** Stands for the local path when the ledger has none (an object it knows only from verifications). */
    static final String UNKNOWN_PATH = "(not recorded)";

    private ScrubExpectation() {
    }

    /** @param meta the scrub tick's meta, see {@link Verdicts#of(ObjectUploaded, io.stowage.events.VerifyMethod, Observation, String, EventMeta)} */
    public static ObjectUploaded of(ScrubCandidate c, EventMeta meta) {
        String path = c.localPath() == null || c.localPath().isBlank() ? UNKNOWN_PATH : c.localPath();
        String asset = c.assetId() == null || c.assetId().isBlank() ? "unknown" : c.assetId();
        return ObjectUploaded.of(meta, asset, c.store(), c.bucket(), c.key(), c.kind(), c.bytes(), c.sha256(), null,
                path, false);
    }
}
