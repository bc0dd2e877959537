package io.stowage.provideradapter.domain.resource;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * A volume the provider-adapter created and watches, as kept in its state directory.
 *
 * @param id               the provider's volume id
 * @param provider         "local" or "runpod"
 * @param sizeGb           provisioned GB (10^9 bytes)
 * @param path             absolute directory of its files (what a release asks the gate for)
 * @param createdAt        when it was created
 * @param expiresAt        end of its time to live, null for none
 * @param capUsd           money cap, null for none
 * @param state            where it is in its life
 * @param releaseRequestId the newest release request sent to the gate for it, null before any
 * @param releaseReason    why that release was requested: "ttl", "cap", "run-cap" or "operator"
 * @param blockers         what the gate named as blocking the newest release (one line each), empty otherwise
 * @param destroyedAt      when the provider destroyed it, null while it exists
 */
public record ManagedVolume(String id, String provider, String name, String purpose, int sizeGb, String path,
                            Instant createdAt, Instant expiresAt, BigDecimal capUsd, String runId, State state,
                            String releaseRequestId, String releaseReason, List<String> blockers,
                            Instant destroyedAt) {

    /** Life of a managed volume: ACTIVE, then RELEASING (waiting for the gate), BLOCKED (denied) or DESTROYED. */
    public enum State { ACTIVE, RELEASING, BLOCKED, DESTROYED }

    public ManagedVolume {
        blockers = blockers == null ? List.of() : List.copyOf(blockers);
    }

    /** @return this volume waiting for the gate's answer to {@code requestId} */
    public ManagedVolume releasing(String requestId, String reason) {
        return new ManagedVolume(id, provider, name, purpose, sizeGb, path, createdAt, expiresAt, capUsd, runId,
                State.RELEASING, requestId, reason, List.of(), null);
    }

    /** @return this volume with its release denied for the named blockers */
    public ManagedVolume blocked(List<String> why) {
        return new ManagedVolume(id, provider, name, purpose, sizeGb, path, createdAt, expiresAt, capUsd, runId,
                State.BLOCKED, releaseRequestId, releaseReason, why, null);
    }

    /** @return this volume destroyed at {@code at} */
    public ManagedVolume destroyed(Instant at, String reason) {
        return new ManagedVolume(id, provider, name, purpose, sizeGb, path, createdAt, expiresAt, capUsd, runId,
                State.DESTROYED, releaseRequestId, reason, List.of(), at);
    }

    /** @return true until it is destroyed */
    public boolean exists() {
        return state != State.DESTROYED;
    }
}
