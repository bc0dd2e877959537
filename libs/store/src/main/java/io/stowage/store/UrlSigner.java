package io.stowage.store;

import java.net.URI;
import java.time.Duration;

/**
 * Signs GET URLs for one store's bucket: each URL reads one object and nothing else. Signing is local; whether a key
 * may be handed out ({@link PresignPolicy}) and whether its object is there are the caller's checks.
 */
public interface UrlSigner extends AutoCloseable {
    /** @return the bucket the URLs read */
    String bucket();

    /**
     * @param key      the object key in {@link #bucket()}
     * @param lifetime how long the URL works, 1 s to 7 days (SigV4's limit)
     * @return a URL that answers GET with the object's bytes until the lifetime ends
     */
    URI presignGet(String key, Duration lifetime);

    /** Releases what the signer holds; it signs nothing afterwards. */
    @Override
    void close();
}
