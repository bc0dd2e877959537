package io.stowage.verifier.domain;

import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.Sha256;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * Decides which uploaded objects are re-downloaded in full after their HEAD check: consumes an
 * {@link ObjectUploaded} and produces a {@link Choice} with the reason, in this order of rules
 * (services/verifier/README.md has the whole policy):
 * <ol>
 *   <li>a manifest ({@link ObjectKind#MEMBERS}, {@link ObjectKind#DATASET_MANIFEST}) or a milestone archive
 *       ({@link ObjectKind#ARCHIVE}: small, and itself audit evidence);</li>
 *   <li>the manifest of a model revision ({@link ObjectKind#MODEL_MANIFEST}); the revision's files
 *       ({@link ObjectKind#MODEL_FILE}) are sampled like any other object (the rule below: with the default fraction 1.0
 *       every one is re-read; a lower fraction can leave a revision without a re-read file, and the gate then denies
 *       its release);</li>
 *   <li>an object of the replica store (only key checkpoints are copied there);</li>
 *   <li>a {@link ObjectKind#SHARD} or {@link ObjectKind#CHECKPOINT_FILE} of an asset that has had no
 *       successful full read yet in this verifier instance (gate condition 2);</li>
 *   <li>otherwise a seeded sample: the first 53 bits of SHA-256(seed + "\n" + key), read as a draw in
 *       [0, 1), below {@code fraction}. The draw does not depend on the size, so the expected share of
 *       bytes re-read is {@code fraction} too; the same seed and key give the same choice everywhere.</li>
 * </ol>
 * Thread-safe; holds the bounded set of asset ids that had a successful full read.
 */
public final class FullReadPolicy {
    private final double fraction;
    private final long seed;
    private final RecentAssets readAssets;

    /**
     * @param fraction         share (0.0–1.0) of the remaining objects to re-read
     * @param seed             salt of the sample; another seed samples other keys
     * @param rememberedAssets how many asset ids with a successful full read to keep in memory
     * @throws IllegalArgumentException for a fraction outside [0, 1] or fewer than 1 remembered asset
     */
    public FullReadPolicy(double fraction, long seed, int rememberedAssets) {
        if (!(fraction >= 0.0 && fraction <= 1.0)) {
            throw new IllegalArgumentException("full-read fraction must be within [0, 1]: " + fraction);
        }
        this.fraction = fraction;
        this.seed = seed;
        this.readAssets = new RecentAssets(rememberedAssets);
    }

    /**
     * Whether one object is re-read in full, and why.
     *
     * @param fullRead true when the object is to be re-downloaded and hashed
     * @param reason   one line, e.g. "full read: manifest" or "no full read: not sampled (seed 0, fraction 0.1, draw 0.73)"
     */
    public record Choice(boolean fullRead, String reason) {
    }

    /** @return the choice for {@code uploaded}; does not change any state */
    public synchronized Choice choose(ObjectUploaded uploaded) {
        ObjectKind kind = uploaded.kind();
        if (kind == ObjectKind.MEMBERS || kind == ObjectKind.DATASET_MANIFEST) {
            return new Choice(true, "full read: manifest");
        }
        if (kind == ObjectKind.ARCHIVE) {
            return new Choice(true, "full read: milestone archive");
        }
        if (kind == ObjectKind.MODEL_MANIFEST) {
            return new Choice(true, "full read: model revision manifest");
        }
        if ("replica".equals(uploaded.store())) {
            return new Choice(true, "full read: replica copy of a key checkpoint");
        }
        if ((kind == ObjectKind.SHARD || kind == ObjectKind.CHECKPOINT_FILE) && !readAssets.contains(uploaded.assetId())) {
            return new Choice(true, "full read: first of asset");
        }
        double draw = draw(uploaded.key());
        String inputs = "seed " + seed + ", fraction " + BigDecimal.valueOf(fraction).toPlainString();
        return draw < fraction ? new Choice(true, "full read: sampled (" + inputs + ")")
                : new Choice(false, String.format(Locale.ROOT, "no full read: not sampled (%s, draw %.4f)", inputs, draw));
    }

    /**
     * A replica object is only there because its asset is a key checkpoint, and the uploader sends it after
     * the primary copy (same key, same content). So the replica's upload is the first moment the verifier
     * can tell that the primary copy belongs to a key checkpoint too.
     *
     * @return for an object of the replica store, the choice to re-read its primary copy as well; empty otherwise
     */
    public Optional<Choice> choosePrimaryCopy(ObjectUploaded uploaded) {
        return "replica".equals(uploaded.store())
                ? Optional.of(new Choice(true, "full read: primary copy of a key checkpoint"))
                : Optional.empty();
    }

    /**
     * Records a FULL_READ result of OK, so that later shards and checkpoint files of the same asset fall to
     * the sample. Only an OK read counts: after a mismatch, a missing object or an error the next object of
     * the asset is read in full again.
     */
    public synchronized void fullReadSucceeded(ObjectUploaded uploaded) {
        if (uploaded.kind() == ObjectKind.SHARD || uploaded.kind() == ObjectKind.CHECKPOINT_FILE) {
            readAssets.add(uploaded.assetId());
        }
    }

    /** @return the key's draw in [0, 1) under this seed: the first 53 bits of SHA-256(seed + "\n" + key) */
    double draw(String key) {
        byte[] digest = Sha256.newDigest().digest((seed + "\n" + key).getBytes(StandardCharsets.UTF_8));
        return (ByteBuffer.wrap(digest).getLong() >>> 11) * 0x1.0p-53;
    }
}
