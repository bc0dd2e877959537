package io.stowage.verifier.storage;

import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.ObjectReader;
import io.stowage.store.ReadResult;
import io.stowage.store.StoreException;
import io.stowage.verifier.domain.Observation;

import java.util.Optional;

/** Looks at one object through an {@link ObjectReader} and reports what it saw as an {@link Observation}; never throws a store failure. */
public final class Observer {
    private Observer() {
    }

    /** @return Found(bytes, sha256 metadata), Missing, or Unreachable after the reader's retries */
    public static Observation head(ObjectReader reader, String key) {
        return look(reader, key).observation();
    }

    /**
     * One HEAD: what it observed, and the store's answer when it found the object.
     *
     * @param observation Found(bytes, sha256 metadata), Missing, or Unreachable
     * @param head        the store's answer (size, metadata, ETag); empty unless the observation is Found
     */
    public record Look(Observation observation, Optional<ObjectHead> head) {
    }

    /** @return the HEAD's observation and answer (as {@link #head}), never a store failure */
    public static Look look(ObjectReader reader, String key) {
        try {
            Optional<ObjectHead> head = reader.head(key);
            return new Look(head.<Observation>map(h -> new Observation.Found(h.bytes(), h.sha256()))
                    .orElseGet(Observation.Missing::new), head);
        } catch (StoreException e) {
            return new Look(new Observation.Unreachable(reader.storeName() + " store: " + e.getMessage()),
                    Optional.empty());
        }
    }

    /** @return Found(bytes read, recomputed sha256), Missing, or Unreachable after the reader's retries */
    public static Observation readInFull(ObjectReader reader, String key) {
        return readInFull(reader, key, Optional.empty());
    }

    /**
     * As {@link #readInFull(ObjectReader, String)}, after a HEAD of the same object just before ({@code seen}, when it
     * found it): a small object is then read with one GET, without another HEAD ({@link ObjectReader#readAndHash(String,
     * ObjectHead)}). The observation is what the GET read.
     */
    public static Observation readInFull(ObjectReader reader, String key, Optional<ObjectHead> seen) {
        try {
            ReadResult read = seen.isPresent() ? reader.readAndHash(key, seen.get()) : reader.readAndHash(key);
            return new Observation.Found(read.bytes(), read.sha256());
        } catch (ObjectNotFoundException e) {
            return new Observation.Missing();
        } catch (StoreException e) {
            return new Observation.Unreachable(reader.storeName() + " store: " + e.getMessage());
        }
    }
}
