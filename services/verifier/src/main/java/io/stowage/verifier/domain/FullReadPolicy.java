package io.stowage.verifier.domain;

import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;

import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Decides which uploaded objects are re-downloaded in full after their HEAD check:
 * <ul>
 *   <li>always the manifests ({@link ObjectKind#MEMBERS}, {@link ObjectKind#DATASET_MANIFEST}): small,
 *       and every gate decision rests on them;</li>
 *   <li>always every object of the replica store: it is the second copy of gate condition 4;</li>
 *   <li>otherwise a deterministic sample: the first 8 bytes of SHA-256({@code seed} + "\n" + key), read as
 *       a fraction in [0, 1), below {@code fraction}. The same key gets the same choice on every
 *       redelivery and every replica of the verifier.</li>
 * </ul>
 * With the default fraction 1.0 everything is re-read. Below 1.0, gate condition 2 ("at least one shard
 * or checkpoint file of each asset read in full") is not guaranteed for an asset with few objects.
 *
 * @param fraction share of the other objects to re-read, 0.0 to 1.0
 * @param seed     salt of the sample, so that a different seed samples different keys
 */
public record FullReadPolicy(double fraction, String seed) {

    public FullReadPolicy {
        if (fraction < 0.0 || fraction > 1.0) {
            throw new IllegalArgumentException("full-read fraction must be within [0, 1]: " + fraction);
        }
    }

    /** @return true when {@code uploaded} must be re-downloaded and its SHA-256 recomputed */
    public boolean fullRead(ObjectUploaded uploaded) {
        if (uploaded.kind() == ObjectKind.MEMBERS || uploaded.kind() == ObjectKind.DATASET_MANIFEST
                || "replica".equals(uploaded.store())) {
            return true;
        }
        return sample(uploaded.key()) < fraction;
    }

    /** @return the key's place in [0, 1) under this seed */
    double sample(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((seed + "\n" + key).getBytes(StandardCharsets.UTF_8));
            return (ByteBuffer.wrap(digest).getLong() >>> 11) * 0x1.0p-53;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
