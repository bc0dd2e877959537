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
        try {
            Optional<ObjectHead> head = reader.head(key);
            return head.<Observation>map(h -> new Observation.Found(h.bytes(), h.sha256()))
                    .orElseGet(Observation.Missing::new);
        } catch (StoreException e) {
            return new Observation.Unreachable(reader.storeName() + " store: " + e.getMessage());
        }
    }

    /** @return Found(bytes read, recomputed sha256), Missing, or Unreachable after the reader's retries */
    public static Observation readInFull(ObjectReader reader, String key) {
        try {
            ReadResult read = reader.readAndHash(key);
            return new Observation.Found(read.bytes(), read.sha256());
        } catch (ObjectNotFoundException e) {
            return new Observation.Missing();
        } catch (StoreException e) {
            return new Observation.Unreachable(reader.storeName() + " store: " + e.getMessage());
        }
    }
}
