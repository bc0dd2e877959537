package io.stowage.shardbuilder;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** The shard-builder's own settings, under {@code stowage.shard-builder.}. */
@ConfigMapping(prefix = "stowage.shard-builder")
public interface ShardBuilderConfig {

    /**
     * Staging root when a request names none; shards go under {@code <staging-dir>/datasets/<dataset>/<revision>/} and
     * stay until uploaded. Durable: no default outside the dev and test profiles.
     */
    String stagingDir();

    /** Target member bytes per shard when a request names none (production: 1–4 GiB; default 2 GiB). */
    @WithDefault("2147483648")
    long targetShardBytes();

    /**
     * Allow any positive target shard size even when a request does not send {@code "allowSmallShards": true}
     * (tests and demos; production shards are 1–4 GiB).
     */
    @WithDefault("false")
    boolean allowSmallShards();

    /** mtime of every tar member, seconds since 1970 (set from the {@code SOURCE_DATE_EPOCH} environment variable). */
    @WithDefault("0")
    long sourceDateEpoch();

    /**
     * Most shards written at once, each on its own thread; 0 means one per processor
     * ({@code Runtime.availableProcessors()}). The shards' bytes and order do not depend on it.
     */
    @WithDefault("0")
    int parallelism();

    /** How long to wait for Kafka to acknowledge each event before the request fails. */
    @WithDefault("30s")
    Duration publishTimeout();
}
