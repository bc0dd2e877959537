package io.stowage.prefetch;

import io.stowage.events.manifest.ShardEntry;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** Passes every call on to another {@link FetchListener} and counts shards fetched, retried and bytes received. */
final class CountingListener implements FetchListener {
    final AtomicInteger fetched = new AtomicInteger();
    final AtomicInteger retried = new AtomicInteger();
    final AtomicLong bytes = new AtomicLong();
    private final FetchListener next;

    CountingListener(FetchListener next) {
        this.next = next;
    }

    @Override
    public void bytesReceived(long n) {
        bytes.addAndGet(n);
        next.bytesReceived(n);
    }

    @Override
    public void shardCached(ShardEntry shard) {
        next.shardCached(shard);
    }

    @Override
    public void shardFetched(ShardEntry shard, int attempts) {
        fetched.incrementAndGet();
        if (attempts > 1) {
            retried.incrementAndGet();
        }
        next.shardFetched(shard, attempts);
    }

    @Override
    public void shardRetried(ShardEntry shard, String reason) {
        next.shardRetried(shard, reason);
    }

    @Override
    public void shardFailed(ShardFailure failure) {
        next.shardFailed(failure);
    }
}
