package io.stowage.shardformat.write;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardTargetTest {
    static final long GIB = 1L << 30;

    @Test
    void defaultIsTwoGibibytes() {
        assertThat(ShardTarget.DEFAULT_BYTES).isEqualTo(2_147_483_648L);
        assertThat(ShardTarget.resolve(null, ShardTarget.DEFAULT_BYTES, false)).isEqualTo(2_147_483_648L);
    }

    @Test
    void productionBoundsAreOneToFourGibibytesInclusive() {
        assertThat(ShardTarget.resolve(GIB, ShardTarget.DEFAULT_BYTES, false)).isEqualTo(1_073_741_824L);
        assertThat(ShardTarget.resolve(4 * GIB, ShardTarget.DEFAULT_BYTES, false)).isEqualTo(4_294_967_296L);
        assertThatThrownBy(() -> ShardTarget.resolve(GIB - 1, ShardTarget.DEFAULT_BYTES, false))
                .isInstanceOf(DatasetInputException.class)
                .hasMessage("targetShardBytes 1073741823 is outside the production bounds 1073741824..4294967296"
                        + " bytes (1-4 GiB); send \"allowSmallShards\": true (or set"
                        + " stowage.shard-builder.allow-small-shards=true) for tests and demos");
        assertThatThrownBy(() -> ShardTarget.resolve(4 * GIB + 1, ShardTarget.DEFAULT_BYTES, false))
                .hasMessageStartingWith("targetShardBytes 4294967297 is outside the production bounds");
        assertThatThrownBy(() -> ShardTarget.resolve(262_144L, ShardTarget.DEFAULT_BYTES, false))
                .hasMessageStartingWith("targetShardBytes 262144 is outside the production bounds");
    }

    @Test
    void aConfiguredDefaultOutsideTheBoundsIsRefusedToo() {
        assertThatThrownBy(() -> ShardTarget.resolve(null, 1024, false))
                .hasMessageStartingWith("targetShardBytes 1024 is outside the production bounds");
    }

    @Test
    void theOverrideAllowsAnyPositiveTarget() {
        assertThat(ShardTarget.resolve(262_144L, ShardTarget.DEFAULT_BYTES, true)).isEqualTo(262_144L);
        assertThat(ShardTarget.resolve(1L, ShardTarget.DEFAULT_BYTES, true)).isEqualTo(1L);
        assertThat(ShardTarget.resolve(64 * GIB, ShardTarget.DEFAULT_BYTES, true)).isEqualTo(68_719_476_736L);
    }

    @Test
    void aNonPositiveTargetIsRefusedEvenWithTheOverride() {
        assertThatThrownBy(() -> ShardTarget.resolve(0L, ShardTarget.DEFAULT_BYTES, true))
                .isInstanceOf(DatasetInputException.class)
                .hasMessage("targetShardBytes must be positive: 0");
        assertThatThrownBy(() -> ShardTarget.resolve(-5L, ShardTarget.DEFAULT_BYTES, true))
                .hasMessage("targetShardBytes must be positive: -5");
    }
}
