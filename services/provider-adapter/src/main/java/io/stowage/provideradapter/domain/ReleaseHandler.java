package io.stowage.provideradapter.domain;

import io.stowage.events.DirectoryInventory;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.GatePassed;
import io.stowage.events.StowageEvent;
import io.stowage.events.VolumeReleaseFailed;
import io.stowage.events.VolumeReleased;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.time.Clock;
import java.util.Optional;

/**
 * Takes a {@code gate.passed} record (raw value bytes and signature header) and returns the event to
 * emit after handing the release to the provider: {@link VolumeReleased} or {@link VolumeReleaseFailed};
 * nothing for a dry run, which is evaluated by the gate but never executed. A record whose signature
 * does not verify is refused with VolumeReleaseFailed("gate decision not authenticated: ...") and
 * never reaches the provider, and so is an authentic one without a consistent inventory (digest
 * over its listed files). An authentic decision is acted on at most once: its event id is
 * recorded durably in the {@link DecisionJournal} before the provider is called, and a redelivered
 * decision already in the journal is ignored (logged, nothing emitted: its outcome was or will be
 * reported by the first delivery, and a second event for the same request would contradict it).
 */
public final class ReleaseHandler {
    private static final System.Logger LOG = System.getLogger(ReleaseHandler.class.getName());

    private final ReleaseProvider provider;
    private final DecisionAuthenticator authenticator;
    private final DecisionJournal journal;
    private final Clock clock;

    public ReleaseHandler(ReleaseProvider provider, DecisionAuthenticator authenticator, DecisionJournal journal,
                          Clock clock) {
        this.provider = provider;
        this.authenticator = authenticator;
        this.journal = journal;
        this.clock = clock;
    }

    /**
     * @param value     the record's value exactly as received (the bytes the signature covers)
     * @param signature the {@code stowage-signature} header, null when absent
     * @return empty for an authentic dry run or an already executed decision, else the outcome event caused by it
     * @throws io.stowage.events.InvalidEventException when the value is not a valid GatePassed (dead-letter)
     */
    public Optional<StowageEvent> handle(byte[] value, String signature) {
        Optional<String> forged = authenticator.problem(value, signature);
        GatePassed passed = EventCodec.decode(GatePassed.class, value);
        if (forged.isPresent()) {
            return Optional.of(failed(passed, "gate decision not authenticated: " + forged.get() + "; nothing deleted"));
        }
        if (passed.dryRun()) {
            return Optional.empty();
        }
        String decisionId = passed.meta().eventId();
        if (journal.executed(decisionId)) {
            LOG.log(System.Logger.Level.INFO, "ignored: gate.passed event {0} asset {1} was already executed",
                    decisionId, passed.assetId());
            return Optional.empty();
        }
        try {
            journal.record(decisionId);
        } catch (IOException e) {
            return Optional.of(failed(passed, "cannot record decision " + decisionId + " in the journal ("
                    + e.getMessage() + "); nothing deleted"));
        }
        if (passed.inventoryDigest() == null
                || !DirectoryInventory.digestOf(passed.inventory()).equals(passed.inventoryDigest())) {
            return Optional.of(failed(passed, "gate decision " + decisionId + " carries no inventory whose digest"
                    + " matches its inventoryDigest (a gatekeeper too old to send one?); nothing deleted"));
        }
        ReleaseResult result;
        try {
            result = provider.release(ApprovedRelease.of(passed));
        } catch (InvalidPathException e) {
            result = ReleaseResult.refused("not a valid path: " + e.getMessage() + "; nothing deleted");
        }
        if (result.released()) {
            return Optional.of(VolumeReleased.of(EventMeta.causedBy(passed, clock), passed.requestId(), passed.path(),
                    provider.name(), result.fileCount(), result.totalBytes()));
        }
        return Optional.of(failed(passed, result.reason()));
    }

    private VolumeReleaseFailed failed(GatePassed passed, String reason) {
        return VolumeReleaseFailed.of(EventMeta.causedBy(passed, clock), passed.requestId(), passed.path(),
                reason.replaceAll("[\\r\\n]+", " "));
    }
}
