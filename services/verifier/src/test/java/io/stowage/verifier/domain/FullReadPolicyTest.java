package io.stowage.verifier.domain;

import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FullReadPolicyTest {
    static final String SHA = "a".repeat(64);
    static final EventMeta META = new EventMeta("up-1", 1, Instant.parse("2026-11-30T00:00:00Z"), "flow-1", "e-0");

    static ObjectUploaded uploaded(String store, ObjectKind kind, String key) {
        return ObjectUploaded.of(META, "dataset/speech/r1", store, "stowage-" + store, key, kind, 10, SHA, "etag",
                "/staging/x", false);
    }

    @Test
    void theDefaultReReadsEverything() {
        FullReadPolicy policy = new FullReadPolicy(1.0, "stowage");
        assertThat(IntStream.range(0, 200).mapToObj(i -> uploaded("primary", ObjectKind.SHARD, "k" + i)))
                .allMatch(policy::fullRead);
    }

    @Test
    void manifestsAndReplicaObjectsAreAlwaysReRead() {
        FullReadPolicy never = new FullReadPolicy(0.0, "stowage");
        assertThat(never.fullRead(uploaded("primary", ObjectKind.MEMBERS, "m"))).isTrue();
        assertThat(never.fullRead(uploaded("primary", ObjectKind.DATASET_MANIFEST, "d"))).isTrue();
        assertThat(never.fullRead(uploaded("replica", ObjectKind.CHECKPOINT_FILE, "c"))).isTrue();
        assertThat(never.fullRead(uploaded("primary", ObjectKind.SHARD, "s"))).isFalse();
        assertThat(never.fullRead(uploaded("primary", ObjectKind.CHECKPOINT_FILE, "c"))).isFalse();
    }

    @Test
    void theSampleIsDeterministicPerSeedAndKeyAndNearTheFraction() {
        FullReadPolicy quarter = new FullReadPolicy(0.25, "seed-1");
        long chosen = IntStream.range(0, 4000).filter(i -> quarter.fullRead(uploaded("primary", ObjectKind.SHARD,
                "datasets/d/r/shards/" + i))).count();
        assertThat(chosen).isBetween(850L, 1150L);

        assertThat(new FullReadPolicy(0.25, "seed-1").sample("key-7")).isEqualTo(quarter.sample("key-7"));
        assertThat(new FullReadPolicy(0.25, "seed-2").sample("key-7")).isNotEqualTo(quarter.sample("key-7"));
        assertThat(quarter.sample("key-7")).isBetween(0.0, 1.0);
    }

    @Test
    void refusesAFractionOutsideZeroToOne() {
        assertThatThrownBy(() -> new FullReadPolicy(1.5, "s")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FullReadPolicy(-0.1, "s")).isInstanceOf(IllegalArgumentException.class);
    }
}
