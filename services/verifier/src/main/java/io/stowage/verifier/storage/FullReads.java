package io.stowage.verifier.storage;

import io.stowage.store.ObjectReader;
import io.stowage.verifier.VerifierSettings;
import io.stowage.verifier.domain.Observation;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.concurrent.Semaphore;

/**
 * Re-reads objects in full ({@link Observer#readInFull}) for every caller of the verifier at once (the objects verified
 * side by side and the scrub), keeping the memory of ranged reads bounded: an object above
 * {@code stowage.verifier.ranged-read-threshold} bytes is read as parallel ranged GETs that hold up to
 * {@code ranged-read-part-size × ranged-reads-in-flight} bytes, so at most {@code stowage.verifier.ranged-objects-in-flight}
 * such objects are read at once; the others wait. Smaller objects stream through a small buffer and never wait here.
 */
@ApplicationScoped
public class FullReads {
    private final long rangedThreshold;
    private final Semaphore rangedObjects;

    @jakarta.inject.Inject
    FullReads(VerifierSettings settings) {
        this(settings.rangedReadThreshold(), settings.rangedObjectsInFlight());
    }

    /**
     * @param rangedThreshold objects above this many bytes are read as ranged GETs (the reader's own threshold)
     * @param rangedObjects   such objects read at once, at least 1
     * @throws IllegalArgumentException when {@code rangedObjects} is below 1
     */
    public FullReads(long rangedThreshold, int rangedObjects) {
        if (rangedObjects < 1) {
            throw new IllegalArgumentException("ranged objects in flight must be at least 1, not " + rangedObjects);
        }
        this.rangedThreshold = rangedThreshold;
        this.rangedObjects = new Semaphore(rangedObjects, true);
    }

    /**
     * @param sizeHint the largest size known for the object before reading it (the HEAD's, the event's or the ledger's
     *                 bytes), negative when none is known: an unknown size waits as a large object does
     * @return Found(bytes read, recomputed sha256), Missing, or Unreachable (as {@link Observer#readInFull})
     */
    public Observation readInFull(ObjectReader reader, String key, long sizeHint) {
        return readInFull(reader, key, sizeHint, java.util.Optional.empty());
    }

    /**
     * As {@link #readInFull(ObjectReader, String, long)}, after a HEAD of the object just before: {@code seen} is its
     * answer when it found the object ({@link Observer#readInFull(ObjectReader, String, java.util.Optional)})
     */
    public Observation readInFull(ObjectReader reader, String key, long sizeHint,
                                  java.util.Optional<io.stowage.store.ObjectHead> seen) {
        if (sizeHint >= 0 && sizeHint <= rangedThreshold) {
            return Observer.readInFull(reader, key, seen);
        }
        rangedObjects.acquireUninterruptibly();
        try {
            return Observer.readInFull(reader, key, seen);
        } finally {
            rangedObjects.release();
        }
    }
}
