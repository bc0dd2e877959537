package io.stowage.prefetch;

/** Thrown by {@link DatasetFetcher#open} when a shard could not be fetched after its retry; carries the failure. */
public final class ShardFetchException extends RuntimeException {
    private final ShardFailure failure;

    public ShardFetchException(ShardFailure failure) {
        super("shard " + failure.index() + " (" + failure.key() + ") failed after " + failure.attempts() + " attempts: "
                + failure.reason());
        this.failure = failure;
    }

    /** @return the shard and the reason of its last attempt */
    public ShardFailure failure() {
        return failure;
    }
}
