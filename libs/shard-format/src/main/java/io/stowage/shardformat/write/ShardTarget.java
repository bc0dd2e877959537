package io.stowage.shardformat.write;

/**
 * The target shard size rule: consumes a requested size in bytes and whether small shards are
 * allowed, produces the size to plan with or a one-line refusal. Production shards are 1–4 GiB
 * (default 2 GiB); tests and demos may ask for any positive size with {@code allowSmallShards}.
 */
public final class ShardTarget {
    /** Default target: 2 GiB of member bytes. */
    public static final long DEFAULT_BYTES = 2L << 30;
    /** Smallest production target: 1 GiB. */
    public static final long MIN_BYTES = 1L << 30;
    /** Largest production target: 4 GiB. */
    public static final long MAX_BYTES = 4L << 30;

    private ShardTarget() {
    }

    /**
     * @param requestedBytes   the request's target in bytes, or null for {@code defaultBytes}
     * @param defaultBytes     the configured default (2 GiB unless configured otherwise)
     * @param allowSmallShards true when the request or the configuration allows any positive size
     * @return the target in bytes
     * @throws DatasetInputException when the target is not positive, or outside 1–4 GiB without the override
     */
    public static long resolve(Long requestedBytes, long defaultBytes, boolean allowSmallShards) {
        long bytes = requestedBytes == null ? defaultBytes : requestedBytes;
        if (bytes <= 0) {
            throw new DatasetInputException("targetShardBytes must be positive: " + bytes);
        }
        if (!allowSmallShards && (bytes < MIN_BYTES || bytes > MAX_BYTES)) {
            throw new DatasetInputException("targetShardBytes " + bytes + " is outside the production bounds "
                    + MIN_BYTES + ".." + MAX_BYTES + " bytes (1-4 GiB); send \"allowSmallShards\": true"
                    + " (or set stowage.shard-builder.allow-small-shards=true) for tests and demos");
        }
        return bytes;
    }
}
