package io.stowage.gatekeeper.domain;

import java.util.Collection;
import java.util.Map;

/**
 * The gate's own look at the object stores at decision time: a HEAD of every object the ledger's evidence relies on,
 * so that an object deleted, truncated or replaced in the store after its last verification denies the release instead
 * of being taken on the ledger's word. A byte changed inside an object without changing its size or its {@code sha256}
 * metadata is not visible to a HEAD: only a full read finds it, which {@link #readInFull} does for the objects whose
 * full read condition 2 counts.
 */
public interface StoreLook {

    /**
     * HEADs each object, several at a time. Never throws for a store failure: an object that could not be asked is
     * answered {@link State#UNREACHABLE}, which denies.
     *
     * @param objects the objects to look at (store name "primary" or "replica", key, expected bytes and SHA-256)
     * @return one answer per distinct object asked
     */
    Map<StoredObject, Seen> head(Collection<StoredObject> objects);

    /**
     * Reads each object in full and hashes what the store sends (GET, SHA-256), several at a time: what the store holds
     * now, which a HEAD cannot show (a byte changed without a change of size or metadata). Never throws for a store
     * failure: an object that could not be read is answered {@link State#UNREACHABLE}, which denies.
     *
     * @param objects the objects to read
     * @return one answer per distinct object: {@link Seen#present} with the bytes read and their SHA-256 (lower-case
     *         hex), {@link Seen#missing()}, or {@link Seen#unreachable}
     */
    Map<StoredObject, Seen> readInFull(Collection<StoredObject> objects);

    /**
     * One object the evidence relies on.
     *
     * @param store  logical store name, "primary" or "replica"
     * @param key    object key
     * @param bytes  size the manifest and the ledger give, in bytes
     * @param sha256 SHA-256 (lower-case hex) the manifest and the ledger give
     */
    record StoredObject(String store, String key, long bytes, String sha256) {
    }

    /** What a HEAD found. */
    enum State {
        /** the store answered with the object's size and metadata */
        PRESENT,
        /** the store answered that there is no object at the key */
        MISSING,
        /** the store could not be asked (down, paused, refused, out of retries) */
        UNREACHABLE
    }

    /**
     * @param state  what the HEAD found
     * @param bytes  the object's size in bytes when {@link State#PRESENT}, else -1
     * @param sha256 the object's {@code sha256} user metadata when present and set, else null
     * @param detail the store's error for {@link State#UNREACHABLE}, else null
     */
    record Seen(State state, long bytes, String sha256, String detail) {
        /** @return a present object of {@code bytes} with {@code sha256} metadata (null when it has none) */
        public static Seen present(long bytes, String sha256) {
            return new Seen(State.PRESENT, bytes, sha256, null);
        }

        /** @return no object at the key */
        public static Seen missing() {
            return new Seen(State.MISSING, -1, null, null);
        }

        /** @return the store could not be asked, for the reason {@code detail} */
        public static Seen unreachable(String detail) {
            return new Seen(State.UNREACHABLE, -1, null, detail);
        }
    }
}
