package io.stowage.verifier.app;

import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.store.ObjectReader;
import io.stowage.verifier.VerifierSettings;
import io.stowage.verifier.domain.FullReadPolicy;
import io.stowage.verifier.domain.Observation;
import io.stowage.verifier.domain.PrimaryCopy;
import io.stowage.verifier.domain.Verdicts;
import io.stowage.verifier.storage.FullReads;
import io.stowage.verifier.storage.ObjectReaders;
import io.stowage.verifier.storage.Observer;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Verifies one uploaded object: consumes an {@link ObjectUploaded} and produces its HEAD
 * {@link ObjectVerified}, followed by a FULL_READ one when the {@link FullReadPolicy} picks the
 * object (and the HEAD could reach the store). The policy's reason is the FULL_READ result's detail, or
 * the HEAD result's detail when the object is not read in full. An object of the replica store also
 * brings a FULL_READ result of its primary copy (store "primary", same key). Blocking: call it from a
 * worker thread. Thread-safe: the consumer verifies up to {@code stowage.verifier.objects-in-flight} objects at once;
 * each call reads and hashes its own object in full, and large objects take turns ({@link FullReads}).
 */
@ApplicationScoped
public class VerifyWork {
    private static final Logger LOG = Logger.getLogger(VerifyWork.class);
    private final ObjectReaders readers;
    private final FullReadPolicy policy;
    private final Clock clock = Clock.systemUTC();
    private final VerifyMetrics metrics;
    private final FullReads fullReads;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();

    VerifyWork(ObjectReaders readers, FullReads fullReads, VerifierSettings settings, VerifyMetrics metrics) {
        this.metrics = metrics;
        this.readers = readers;
        this.fullReads = fullReads;
        this.policy = new FullReadPolicy(settings.fullReadFraction(), settings.samplingSeed(),
                settings.rememberedAssets());
    }

    /** @return one to three results, HEAD first, then the FULL_READ of this copy, then that of the primary copy */
    public List<ObjectVerified> verify(ObjectUploaded uploaded) {
        peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        try {
            return verifyOne(uploaded);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** @return the most objects this instance has verified at once since it started (at most objects-in-flight) */
    public int peakInFlight() {
        return peakInFlight.get();
    }

    private List<ObjectVerified> verifyOne(ObjectUploaded uploaded) {
        List<ObjectVerified> results = new ArrayList<>();
        Optional<ObjectReader> reader = readers.forStore(uploaded.store())
                .filter(r -> r.bucket().equals(uploaded.bucket()));
        if (reader.isEmpty()) {
            results.add(Verdicts.of(uploaded, VerifyMethod.HEAD, new Observation.Unreachable("no configured store "
                    + uploaded.store() + " with bucket " + uploaded.bucket()), clock));
            results.forEach(metrics::record);
            return results;
        }
        Observer.Look look = Observer.look(reader.get(), uploaded.key());
        Observation head = look.observation();
        if (head instanceof Observation.Unreachable) {
            results.add(Verdicts.of(uploaded, VerifyMethod.HEAD, head, clock));
        } else {
            FullReadPolicy.Choice choice = policy.choose(uploaded);
            String headReason = choice.fullRead() ? null : choice.reason();
            results.add(Verdicts.of(uploaded, VerifyMethod.HEAD, head, headReason, clock));
            long sizeHint = Math.max(uploaded.bytes(), head instanceof Observation.Found f ? f.bytes() : -1);
            if (choice.fullRead()) {
                // the HEAD's answer spares a small object's read a HEAD of its own; the result is what the GET read
                results.add(readInFull(uploaded, reader.get(), sizeHint, choice.reason(), look.head()));
            }
            policy.choosePrimaryCopy(uploaded).ifPresent(primary -> readers.forStore("primary").ifPresent(
                    r -> results.add(readInFull(PrimaryCopy.of(uploaded, r.bucket()), r, uploaded.bytes(),
                            primary.reason(), Optional.empty()))));
        }
        results.forEach(r -> LOG.infof("event %s object.uploaded asset %s: %s %s %s -> %s%s",
                uploaded.meta().eventId(), uploaded.assetId(), r.method(), r.store(), r.key(),
                r.result(), r.detail() == null ? "" : " (" + r.detail() + ")"));
        results.forEach(metrics::record);
        return results;
    }

    private ObjectVerified readInFull(ObjectUploaded uploaded, ObjectReader reader, long sizeHint, String reason,
                                      Optional<io.stowage.store.ObjectHead> seen) {
        ObjectVerified full = Verdicts.of(uploaded, VerifyMethod.FULL_READ,
                fullReads.readInFull(reader, uploaded.key(), sizeHint, seen), reason, clock);
        if (full.result() == VerifyResult.OK) {
            policy.fullReadSucceeded(uploaded);
        }
        return full;
    }
}
