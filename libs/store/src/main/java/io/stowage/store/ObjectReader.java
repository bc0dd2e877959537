package io.stowage.store;

import java.util.List;
import java.util.Optional;

/**
 * Read-only view of one bucket of an object store: HEAD, full read with SHA-256, list. It can
 * neither write nor delete, which is all a verifier may do. Methods block the calling thread;
 * call them from a worker thread.
 */
public interface ObjectReader {

    /** @return the logical store name ("primary", "replica") of {@link StoreConfig#name()} */
    String storeName();

    /** @return the bucket this reader reads */
    String bucket();

    /**
     * @return size, {@code sha256} metadata and ETag of the object at {@code key}; empty when there is none
     * @throws TransientStoreException when the store cannot be reached or answers 5xx / 429
     * @throws PermanentStoreException when the store refuses the request (auth, bad bucket)
     */
    Optional<ObjectHead> head(String key);

    /**
     * Streams the whole object through SHA-256 without keeping it.
     *
     * @return bytes read and their SHA-256
     * @throws ObjectNotFoundException when there is no object at {@code key}
     * @throws TransientStoreException when the store cannot be reached or the stream breaks
     * @throws PermanentStoreException when the store refuses the request
     */
    ReadResult readAndHash(String key);

    /**
     * As {@link #readAndHash(String)}, for a caller that has just HEADed the object: a reader that would HEAD it first
     * to choose how to read it may take {@code seen} instead when it is small enough for one streamed GET (one request
     * fewer), and HEADs again before anything else (a ranged read is checked against the ETag of a fresh HEAD). What is
     * returned is always what the GET read, whatever {@code seen} said.
     *
     * @param seen the object's HEAD as the caller got it just before
     */
    default ReadResult readAndHash(String key, ObjectHead seen) {
        return readAndHash(key);
    }

    /**
     * @return every key starting with {@code prefix}, in the store's (lexical) order
     * @throws TransientStoreException when the store cannot be reached
     * @throws PermanentStoreException when the store refuses the request
     */
    List<String> list(String prefix);

    /**
     * Opens the whole object as a stream of its bytes (one GET), for a reader that keeps them (the prefetch cache,
     * which hashes them itself while writing). Nothing is checked here: the caller compares the SHA-256.
     *
     * @return the object's bytes; the caller closes the stream. Reading it may throw {@link java.io.IOException}
     *         when the connection breaks
     * @throws ObjectNotFoundException when there is no object at {@code key}
     * @throws TransientStoreException when the store cannot be reached or answers 5xx / 429
     * @throws PermanentStoreException when the store refuses the request
     * @throws UnsupportedOperationException from a reader that cannot stream (the default)
     */
    default java.io.InputStream open(String key) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot stream " + key);
    }
}
