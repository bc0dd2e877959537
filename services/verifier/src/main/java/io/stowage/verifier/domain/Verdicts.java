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
 * MISSING or ERROR. The result is caused by the upload event and keeps its correlation id. The detail
 * is the sampling reason when OK (null when there is none), and the problem, "; " and the reason otherwise.
 */
public final class Verdicts {
    private Verdicts() {
    }

    /** @return the result of a look without a sampling reason */
    public static ObjectVerified of(ObjectUploaded uploaded, VerifyMethod method, Observation observation,
                                    Clock clock) {
        return of(uploaded, method, observation, null, clock);
    }

    /**
     * @param reason why the object was or was not read in full ({@link FullReadPolicy.Choice#reason()}), or null
     * @return the result, its detail the reason when OK, else the problem, "; " and the reason
     */
    public static ObjectVerified of(ObjectUploaded uploaded, VerifyMethod method, Observation observation,
                                    String reason, Clock clock) {
        return of(uploaded, method, observation, reason, EventMeta.causedBy(uploaded, clock));
    }

    /**
     * The result of a look that no event caused (the rolling scrub): same judgement, the given meta.
     *
     * @param uploaded what the object should hold (for the scrub: from the ledger, see {@link ScrubExpectation})
     * @param meta     the result's meta (id, time, correlation id)
     * @return the result, its detail the reason when OK, else the problem, "; " and the reason
     */
    public static ObjectVerified of(ObjectUploaded uploaded, VerifyMethod method, Observation observation,
                                    String reason, EventMeta meta) {
        if (observation instanceof Observation.Found found) {
            String problem = mismatch(uploaded, method, found);
            return event(uploaded, method, problem == null ? VerifyResult.OK : VerifyResult.MISMATCH, found.bytes(),
                    found.sha256(), detail(problem, reason), meta);
        }
        if (observation instanceof Observation.Missing) {
            return event(uploaded, method, VerifyResult.MISSING, -1, null, detail("no object at " + uploaded.store()
                    + ":" + uploaded.bucket() + "/" + uploaded.key(), reason), meta);
        }
        return event(uploaded, method, VerifyResult.ERROR, -1, null,
                detail(((Observation.Unreachable) observation).reason(), reason), meta);
    }

    private static String detail(String problem, String reason) {
        if (problem == null || reason == null) {
            return problem == null ? reason : problem;
        }
        return problem + "; " + reason;
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
                                        String actualSha256, String detail, EventMeta meta) {
        return ObjectVerified.of(meta, u.assetId(), u.store(), u.bucket(), u.key(), u.kind(),
                method, result, u.bytes(), u.sha256(), actualBytes, actualSha256, detail);
    }
}
