package io.stowage.verifier.domain;

import io.stowage.events.EventMeta;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;

import java.time.Clock;

/**
 * Judges one {@link Observation} of an uploaded object against its {@link ObjectUploaded} event and
 * produces the {@link ObjectVerified} event: OK, MISMATCH (expected and actual size / SHA-256),
 * MISSING or ERROR. The result is caused by the upload event and keeps its correlation id.
 */
public final class Verdicts {
    private Verdicts() {
    }

    public static ObjectVerified of(ObjectUploaded uploaded, VerifyMethod method, Observation observation,
                                    Clock clock) {
        if (observation instanceof Observation.Found found) {
            String detail = mismatch(uploaded, method, found);
            return event(uploaded, method, detail == null ? VerifyResult.OK : VerifyResult.MISMATCH, found.bytes(),
                    found.sha256(), detail, clock);
        }
        if (observation instanceof Observation.Missing) {
            return event(uploaded, method, VerifyResult.MISSING, -1, null,
                    "no object at " + uploaded.store() + ":" + uploaded.bucket() + "/" + uploaded.key(), clock);
        }
        return event(uploaded, method, VerifyResult.ERROR, -1, null,
                ((Observation.Unreachable) observation).reason(), clock);
    }

    /** @return one line naming what differs, or null when size and SHA-256 are the expected ones */
    private static String mismatch(ObjectUploaded uploaded, VerifyMethod method, Observation.Found found) {
        String what = method == VerifyMethod.HEAD ? "sha256 metadata" : "recomputed sha256";
        if (found.bytes() != uploaded.bytes()) {
            return "size " + found.bytes() + " bytes, expected " + uploaded.bytes();
        }
        if (found.sha256() == null) {
            return "object has no sha256 metadata, expected " + uploaded.sha256();
        }
        if (!found.sha256().equals(uploaded.sha256())) {
            return what + " " + found.sha256() + ", expected " + uploaded.sha256();
        }
        return null;
    }

    private static ObjectVerified event(ObjectUploaded u, VerifyMethod method, VerifyResult result, long actualBytes,
                                        String actualSha256, String detail, Clock clock) {
        return ObjectVerified.of(EventMeta.causedBy(u, clock), u.assetId(), u.store(), u.bucket(), u.key(), u.kind(),
                method, result, u.bytes(), u.sha256(), actualBytes, actualSha256, detail);
    }
}
