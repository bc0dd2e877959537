package io.stowage.verifier.domain;

import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FullReadPolicyTest {
    static final String SHA = "a".repeat(64);
    static final EventMeta META = new EventMeta("up-1", 1, Instant.parse("2026-11-30T00:00:00Z"), "flow-1", "e-0");

    static ObjectUploaded uploaded(String store, ObjectKind kind, String key) {
        return uploaded("dataset/speech/r1", store, kind, key, 10);
    }

    static ObjectUploaded uploaded(String asset, String store, ObjectKind kind, String key, long bytes) {
        return ObjectUploaded.of(META, asset, store, "stowage-" + store, key, kind, bytes, SHA, "etag",
                "/staging/x", false);
    }

    /** A policy that has already read one object of dataset/speech/r1 in full, so the sample decides. */
    static FullReadPolicy seen(double fraction, long seed) {
        FullReadPolicy policy = new FullReadPolicy(fraction, seed, 1000);
        policy.fullReadSucceeded(uploaded("primary", ObjectKind.SHARD, "first"));
        return policy;
    }

    @Test
    void theDefaultFractionReReadsEverything() {
        FullReadPolicy policy = seen(1.0, 0);
        assertThat(IntStream.range(0, 200).mapToObj(i -> policy.choose(uploaded("primary", ObjectKind.SHARD, "k" + i))))
                .allMatch(FullReadPolicy.Choice::fullRead)
                .allMatch(c -> c.reason().equals("full read: sampled (seed 0, fraction 1.0)"));
    }

    @Test
    void manifestsAndReplicaObjectsAreAlwaysReRead() {
        FullReadPolicy never = seen(0.0, 0);
        assertThat(never.choose(uploaded("primary", ObjectKind.MEMBERS, "m")))
                .isEqualTo(new FullReadPolicy.Choice(true, "full read: manifest"));
        assertThat(never.choose(uploaded("primary", ObjectKind.DATASET_MANIFEST, "d")))
                .isEqualTo(new FullReadPolicy.Choice(true, "full read: manifest"));
        assertThat(never.choose(uploaded("archive/run/exp/run-1", "primary", ObjectKind.ARCHIVE, "ledger/archives/a", 10)))
                .isEqualTo(new FullReadPolicy.Choice(true, "full read: milestone archive"));
        assertThat(never.choose(uploaded("replica", ObjectKind.CHECKPOINT_FILE, "c")))
                .isEqualTo(new FullReadPolicy.Choice(true, "full read: replica copy of a key checkpoint"));
        FullReadPolicy.Choice shard = never.choose(uploaded("primary", ObjectKind.SHARD, "s"));
        assertThat(shard.fullRead()).isFalse();
        assertThat(shard.reason()).startsWith("no full read: not sampled (seed 0, fraction 0.0, draw 0.");
    }

    @Test
    void aReplicaObjectBringsAFullReadOfItsPrimaryCopy() {
        FullReadPolicy never = seen(0.0, 0);
        ObjectUploaded replica = uploaded("replica", ObjectKind.CHECKPOINT_FILE, "checkpoints/e/r/1/x/model.bin");
        assertThat(never.choosePrimaryCopy(replica))
                .contains(new FullReadPolicy.Choice(true, "full read: primary copy of a key checkpoint"));
        assertThat(never.choosePrimaryCopy(uploaded("primary", ObjectKind.CHECKPOINT_FILE, "c"))).isEmpty();

        ObjectUploaded primary = PrimaryCopy.of(replica, "stowage-primary");
        assertThat(primary).extracting(ObjectUploaded::store, ObjectUploaded::bucket, ObjectUploaded::key,
                ObjectUploaded::sha256, ObjectUploaded::meta).containsExactly("primary", "stowage-primary",
                replica.key(), replica.sha256(), replica.meta());
    }

    @Test
    void theFirstShardOrCheckpointFileOfEachAssetIsReadUntilOneReadSucceeds() {
        FullReadPolicy never = new FullReadPolicy(0.0, 0, 2);
        ObjectUploaded first = uploaded("checkpoint/exp/run/000000000010", "primary", ObjectKind.CHECKPOINT_FILE,
                "c1", 10);
        ObjectUploaded second = uploaded("checkpoint/exp/run/000000000010", "primary", ObjectKind.CHECKPOINT_FILE,
                "c2", 10);
        assertThat(never.choose(first)).isEqualTo(new FullReadPolicy.Choice(true, "full read: first of asset"));
        assertThat(never.choose(second).fullRead()).isTrue(); // the first read has not succeeded (yet)

        never.fullReadSucceeded(first);
        assertThat(never.choose(second).fullRead()).isFalse();
        assertThat(never.choose(uploaded("dataset/other/r1", "primary", ObjectKind.SHARD, "s", 10)).reason())
                .isEqualTo("full read: first of asset");
        assertThat(never.choose(uploaded("model/m/r1", "primary", ObjectKind.MODEL_FILE, "m", 10)).fullRead())
                .isFalse(); // a model file is sampled (fraction 0 here); the rolling scrub re-reads it later
    }

    @Test
    void theSetOfReadAssetsIsBoundedAndForgetsTheOldestFirst() {
        FullReadPolicy policy = new FullReadPolicy(0.0, 0, 2);
        List.of("a/1", "a/2", "a/3").forEach(a -> policy.fullReadSucceeded(uploaded(a, "primary", ObjectKind.SHARD, a, 1)));
        assertThat(policy.choose(uploaded("a/1", "primary", ObjectKind.SHARD, "x", 1)).fullRead()).isTrue();
        assertThat(policy.choose(uploaded("a/3", "primary", ObjectKind.SHARD, "x", 1)).fullRead()).isFalse();
    }

    @Test
    void theSampleIsReproducibleFromItsSeedAndAnotherSeedChoosesOtherKeys() {
        List<String> keys = IntStream.range(0, 500).mapToObj(i -> "datasets/d/r/shards/" + i).toList();
        List<Boolean> once = chosen(seen(0.3, 42), keys);
        assertThat(chosen(seen(0.3, 42), keys)).isEqualTo(once);
        assertThat(chosen(seen(0.3, 43), keys)).isNotEqualTo(once);
        assertThat(seen(0.3, 42).choose(uploaded("primary", ObjectKind.SHARD, keys.get(0))).reason())
                .isIn("full read: sampled (seed 42, fraction 0.3)",
                        String.format(java.util.Locale.ROOT, "no full read: not sampled (seed 42, fraction 0.3, draw %.4f)",
                                seen(0.3, 42).draw(keys.get(0))));
    }

    @Test
    void theSampledShareOfBytesIsNearTheFraction() {
        Random sizes = new Random(7);
        FullReadPolicy tenth = seen(0.10, 0);
        long total = 0;
        long read = 0;
        for (int i = 0; i < 20_000; i++) {
            long bytes = 1 + (long) (sizes.nextDouble() * 100_000_000L);
            total += bytes;
            if (tenth.choose(uploaded("dataset/speech/r1", "primary", ObjectKind.SHARD, "s/" + i, bytes)).fullRead()) {
                read += bytes;
            }
        }
        assertThat((double) read / total).isBetween(0.09, 0.11);
    }

    @Test
    void refusesAFractionOutsideZeroToOneAndAnEmptyMemory() {
        assertThatThrownBy(() -> new FullReadPolicy(1.5, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FullReadPolicy(-0.1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FullReadPolicy(Double.NaN, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FullReadPolicy(0.5, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static List<Boolean> chosen(FullReadPolicy policy, List<String> keys) {
        return keys.stream().map(k -> policy.choose(uploaded("primary", ObjectKind.SHARD, k)).fullRead()).toList();
    }

    @Test
    void theManifestOfAModelRevisionIsAlwaysReReadAndItsFilesAreSampled() {
        FullReadPolicy never = seen(0.0, 7);
        for (int i = 0; i < 20; i++) {
            assertThat(never.choose(uploaded("model/en-us/r1", "primary", ObjectKind.MODEL_FILE, "models/en-us/r1/" + SHA
                    + "/f" + i, 10)).fullRead()).isFalse();
        }
        assertThat(seen(1.0, 7).choose(uploaded("model/en-us/r1", "primary", ObjectKind.MODEL_FILE, "models/en-us/r1/"
                + SHA + "/f0", 10)).fullRead()).isTrue();
        assertThat(never.choose(uploaded("model/en-us/r1", "primary", ObjectKind.MODEL_MANIFEST,
                "models/en-us/r1/manifest.json", 10)).reason())
                .isEqualTo("full read: model revision manifest");
    }
}
