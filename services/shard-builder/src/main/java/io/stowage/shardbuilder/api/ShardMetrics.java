package io.stowage.shardbuilder.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.stowage.shardformat.write.BuiltShard;
import io.stowage.shardformat.write.DatasetInputException;
import io.stowage.shardformat.write.LedgerUnavailableException;
import io.stowage.shardformat.write.RevisionSealedException;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.util.List;

/**
 * The shard-builder's meters on {@code /q/metrics}, counted once per {@code POST /api/datasets/shard} that reached the
 * sharder: {@code stowage_shard_builder_builds_total{outcome}} and {@code stowage_shard_builder_build_seconds{outcome}}
 * with outcome {@code built} (events sent), {@code already_sealed} (same content sealed before, nothing sent),
 * {@code conflict} (sealed with other content, 409), {@code invalid} (bad input, 400), {@code ledger_unavailable}
 * (503) or {@code failed} (500); and for a {@code built} build {@code stowage_shard_builder_shards_total} (shards
 * published) and {@code stowage_shard_builder_shard_bytes_total} (their {@code .tar.zst} bytes as written, member
 * manifests and {@code manifest.json} not included). Tags never carry a dataset, revision or path.
 */
@ApplicationScoped
public class ShardMetrics {
    private final MeterRegistry registry;

    ShardMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Counts a build that published its {@code shards} ({@code alreadySealed} false) or found them sealed already. */
    public void built(List<BuiltShard> shards, boolean alreadySealed, long nanos) {
        String outcome = alreadySealed ? "already_sealed" : "built";
        outcome(outcome, nanos);
        if (!alreadySealed) {
            Counter.builder("stowage.shard.builder.shards").description("shards built and published")
                    .register(registry).increment(shards.size());
            Counter.builder("stowage.shard.builder.shard").baseUnit("bytes").description("bytes of the shards published")
                    .register(registry).increment(shards.stream().mapToLong(s -> s.shard().bytes()).sum());
        }
    }

    /** Counts a build that ended with {@code failure} (the answer is its mapped status). */
    public void refused(Throwable failure, long nanos) {
        outcome(failure instanceof RevisionSealedException ? "conflict"
                : failure instanceof DatasetInputException ? "invalid"
                : failure instanceof LedgerUnavailableException ? "ledger_unavailable" : "failed", nanos);
    }

    private void outcome(String outcome, long nanos) {
        Counter.builder("stowage.shard.builder.builds").description("shard requests, by outcome")
                .tag("outcome", outcome).register(registry).increment();
        Timer.builder("stowage.shard.builder.build").description("duration of one shard request, by outcome")
                .tag("outcome", outcome).publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(10)).maximumExpectedValue(Duration.ofHours(2))
                .register(registry).record(Duration.ofNanos(nanos));
    }
}
