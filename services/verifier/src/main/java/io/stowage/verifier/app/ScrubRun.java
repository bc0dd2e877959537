package io.stowage.verifier.app;

import io.stowage.events.EventMeta;
import io.stowage.events.ObjectVerified;
import io.stowage.events.VerifyMethod;
import io.stowage.events.ledger.ScrubCandidate;
import io.stowage.store.ObjectReader;
import io.stowage.verifier.VerifierSettings;
import io.stowage.verifier.domain.Observation;
import io.stowage.verifier.domain.ScrubBudget;
import io.stowage.verifier.domain.ScrubExpectation;
import io.stowage.verifier.domain.ScrubPlan;
import io.stowage.verifier.domain.Verdicts;
import io.stowage.verifier.ledgerclient.LedgerScrubQueue;
import io.stowage.verifier.ledgerclient.LedgerUnavailableException;
import io.stowage.verifier.storage.FullReads;
import io.stowage.verifier.storage.ObjectReaders;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One run of the rolling scrub: consumes the instant of the run, asks the ledger for the objects re-read least
 * recently ({@link LedgerScrubQueue}), re-reads those the {@link ScrubBudget} and {@link ScrubPlan} allow in full
 * (streamed through SHA-256, ranged GETs for large objects), and produces one {@code object.verified} FULL_READ
 * result per object (detail {@code scrub: …}, expected values from the ledger), handed to a sink as soon as it is
 * known. Every result of one run has the correlation id {@code scrub-<instant of the run>}, by which the ledger
 * tells scrub reads from upload-time reads. Blocking; one run at a time.
 */
@ApplicationScoped
public class ScrubRun {
    private static final Logger LOG = Logger.getLogger(ScrubRun.class);
    private final ObjectReaders readers;
    private final FullReads fullReads;
    private final LedgerScrubQueue ledger;
    private final VerifyMetrics metrics;
    private final ScrubBudget budget;
    private final Duration period;
    private final int batch;

    ScrubRun(ObjectReaders readers, FullReads fullReads, LedgerScrubQueue ledger, VerifierSettings settings,
             VerifyMetrics metrics) {
        this.metrics = metrics;
        this.fullReads = fullReads;
        this.readers = readers;
        this.ledger = ledger;
        this.budget = new ScrubBudget(settings.scrub().bytesPerHour());
        this.period = settings.scrub().period();
        this.batch = Math.max(1, Math.min(1000, settings.scrub().batch()));
    }

    /**
     * @param now  the run's instant: refills the budget, bounds the ledger query and stamps every result
     * @param sink receives each result in read order; it should return once the result is published
     * @return the results, in read order; empty when nothing is due, the budget is spent, or the ledger is unreachable
     */
    public synchronized List<ObjectVerified> run(Instant now, Consumer<ObjectVerified> sink) {
        long allowance = budget.refill(now);
        if (allowance <= 0) {
            LOG.infof("scrub at %s: budget spent (%d bytes), nothing read", now, allowance);
            return List.of();
        }
        List<ScrubCandidate> due;
        try {
            due = ledger.due(now, batch);
        } catch (LedgerUnavailableException e) {
            LOG.warnf("scrub at %s: ledger unavailable, nothing read: %s", now, e.getMessage());
            return List.of();
        }
        List<ScrubCandidate> chosen = ScrubPlan.choose(due, allowance, now, period);
        Clock at = Clock.fixed(now, ZoneOffset.UTC);
        String correlation = "scrub-" + now;
        List<ObjectVerified> results = new ArrayList<>();
        for (ScrubCandidate c : chosen) {
            budget.spend(c.bytes());
            EventMeta meta = EventMeta.first(correlation, at);
            ObjectVerified result = Verdicts.of(ScrubExpectation.of(c, meta), VerifyMethod.FULL_READ, read(c),
                    ScrubPlan.reason(c), meta);
            LOG.infof("event %s object.verified asset %s: scrub %s %s -> %s", result.meta().eventId(), result.assetId(),
                    c.store(), c.key(), result.result());
            sink.accept(result);
            metrics.record(result);
            results.add(result);
        }
        LOG.infof("scrub at %s: %d of %d due objects re-read, %d bytes of budget left", now, results.size(), due.size(),
                budget.refill(now));
        return results;
    }

    /**
     * Re-reads every object of one asset in full now, in every store, outside the scrub's budget (an operator's
     * request, e.g. to clear a dead letter the gate counts against the asset, or to check a copy after a repair).
     * Each result is an {@code object.verified} FULL_READ with the ledger's expected values, detail
     * {@code re-read on request by <who>}, correlation id {@code reread-<now>}, handed to {@code sink} as soon as it is
     * known.
     *
     * @param assetId     the asset
     * @param now         the results' time
     * @param requestedBy the token name of who asked, for the detail
     * @param limit       the most objects to read (1–1000); the least recently re-read come first, so a repeated request
     *                    reaches the rest
     * @return the results in read order; empty when the ledger holds no object of the asset
     * @throws LedgerUnavailableException when the ledger cannot be asked (nothing read)
     */
    public synchronized List<ObjectVerified> reread(String assetId, Instant now, String requestedBy, int limit,
                                                    Consumer<ObjectVerified> sink) {
        List<ScrubCandidate> objects = ledger.ofAsset(assetId, now, Math.max(1, Math.min(1000, limit)));
        Clock at = Clock.fixed(now, ZoneOffset.UTC);
        String correlation = "reread-" + now;
        List<ObjectVerified> results = new ArrayList<>();
        for (ScrubCandidate c : objects) {
            EventMeta meta = EventMeta.first(correlation, at);
            ObjectVerified result = Verdicts.of(ScrubExpectation.of(c, meta), VerifyMethod.FULL_READ, read(c),
                    "re-read on request by " + requestedBy, meta);
            LOG.infof("event %s object.verified asset %s: re-read on request %s %s -> %s", result.meta().eventId(),
                    result.assetId(), c.store(), c.key(), result.result());
            sink.accept(result);
            metrics.record(result);
            results.add(result);
        }
        return results;
    }

    private Observation read(ScrubCandidate c) {
        Optional<ObjectReader> reader = readers.forStore(c.store()).filter(r -> r.bucket().equals(c.bucket()));
        return reader.map(r -> fullReads.readInFull(r, c.key(), c.bytes())).orElseGet(() -> new Observation.Unreachable(
                "no configured store " + c.store() + " with bucket " + c.bucket()));
    }
}
