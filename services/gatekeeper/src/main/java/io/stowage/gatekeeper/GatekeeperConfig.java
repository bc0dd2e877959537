package io.stowage.gatekeeper;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Gatekeeper settings under {@code stowage.gatekeeper}. */
@ConfigMapping(prefix = "stowage.gatekeeper")
public interface GatekeeperConfig {
    /**
     * How long to poll the ledger for the request event, and for its consumer group to have committed every evidence
     * topic up to the end offsets seen when the request arrived, before denying with "ledger-behind" or
     * "ledger-unavailable".
     */
    @WithDefault("30s")
    Duration ledgerWait();

    /**
     * Pause between two polls of the ledger while waiting for the request event and the evidence topics' committed
     * offsets (each poll is two small HTTP calls to the ledger, which asks the broker once): 100 ms.
     */
    @WithDefault("100ms")
    Duration ledgerPoll();

    /**
     * Comma-separated absolute paths of the volumes (hot volume, scratch) whose directories may be released; a
     * target must lie strictly under one. Default: none, so every request is denied (fail closed) until it is set.
     */
    Optional<List<String>> volumeRoots();

    /** Timeout of one ledger HTTP call (connect and read). */
    @WithDefault("10s")
    Duration ledgerTimeout();

    /**
     * Requests whose event time is older than this are refused with "stale-request" instead of evaluated (a
     * redelivery after a long outage, or offsets reset): the requester must send a new request.
     */
    @WithDefault("1h")
    Duration maxRequestAge();

    /**
     * How long a request waits for the decision journal (the gatekeeper's read-back of {@code gate.passed} and
     * {@code gate.denied}) to have read both topics up to their ends before it is evaluated; when it has not, nothing
     * is sent and the request is tried again ({@code stowage.redelivery.*}), then dead-lettered.
     */
    @WithDefault("30s")
    Duration journalWait();

    /**
     * How many HEAD requests the gate has in flight at once when it looks at the stores at decision time (every object
     * the evidence relies on is HEADed): 8.
     */
    @WithDefault("8")
    int storeHeadsInFlight();

    /** Attempts of one decision-time HEAD before the object is taken as unreachable (and the release denied): 3. */
    @WithDefault("3")
    int storeHeadAttempts();

    /**
     * Longest wait of one request's decision-time look for its next HEAD answer: once no HEAD was answered for this
     * long (a paused or silent store), every object still unanswered counts as unreachable and the release is denied;
     * a store that keeps answering is waited for however many objects the release relies on. 60 s.
     */
    @WithDefault("60s")
    Duration storeLookTimeout();

    /**
     * Whether the gate reads in full again, at decision time, every object whose full read condition 2 counts (GET and
     * SHA-256 of what the store sends): true. A byte changed in the store after the verifier's read, size and metadata
     * kept, is then a denial ({@code store-object-changed}, {@code no-replica-copy}); false takes the earlier read on
     * the ledger's word. The read costs a download of those objects per decision that would otherwise pass.
     */
    @WithDefault("true")
    boolean rereadAtDecision();

    /**
     * Longest wait of the decision-time full reads for their next answer: once no read finished for this long, every
     * object still being read counts as unreachable and the release is denied. 10 minutes (one object of several GiB
     * from a remote store).
     */
    @WithDefault("10m")
    Duration storeRereadTimeout();
}
