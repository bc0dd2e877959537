package io.stowage.shardbuilder.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.common.annotation.Blocking;
import io.stowage.events.AssetIds;
import io.stowage.events.StowageEvent;
import io.stowage.shardbuilder.ShardBuilderConfig;
import io.stowage.shardbuilder.domain.DatasetEvents;
import io.stowage.shardformat.write.DatasetInputException;
import io.stowage.shardformat.write.DatasetSharder;
import io.stowage.shardformat.write.SealedDataset;
import io.stowage.shardformat.write.ShardRequest;
import io.stowage.shardformat.write.ShardTarget;
import io.stowage.shardformat.write.ShardWriter;
import io.stowage.messaging.EventPublisher;
import io.stowage.shardbuilder.ledgerclient.LedgerRevisions;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.time.Clock;
import java.util.List;

/**
 * {@code POST /api/datasets/shard}: consumes a {@link ShardRequestBody}, shards the directory
 * synchronously on a worker thread, asks the ledger whether the revision is sealed, publishes
 * {@code shard.built} per shard and {@code dataset.sealed} (nothing when the same content is sealed already),
 * and answers a {@link ShardResponse} once Kafka acknowledged all of them.
 */
@Path("/api/datasets/shard")
@RolesAllowed(Roles.READER)
public class ShardResource {
    private final ShardBuilderConfig config;
    private final EventPublisher publisher;
    private final DatasetSharder sharder;
    private final Clock clock = Clock.systemUTC();

    private final LedgerRevisions ledger;
    private final ShardMetrics metrics;

    ShardResource(ShardBuilderConfig config, EventPublisher publisher, LedgerRevisions ledger, ShardMetrics metrics) {
        this.config = config;
        this.publisher = publisher;
        this.ledger = ledger;
        this.metrics = metrics;
        int parallelism = config.parallelism() > 0 ? config.parallelism() : Runtime.getRuntime().availableProcessors();
        this.sharder = new DatasetSharder(new ShardWriter(config.sourceDateEpoch()), parallelism);
    }

    /**
     * @return 200 with the shard summary ({@code alreadySealed: true}, nothing sent, when the ledger holds the
     *         revision sealed with the same manifest SHA-256); 400 {@code {"error"}} for a bad name, a missing or
     *         relative directory, a target shard size outside 1–4 GiB without {@code allowSmallShards}, anything
     *         but regular files, a WebDataset key collision or an empty directory; 409 when the revision is sealed
     *         with other content (a sealed revision never changes); 503 when the ledger cannot say whether it is
     *         sealed; 500 when a file changed while read, or writing or publishing fails (no event is sent unless
     *         every shard was written and the ledger allowed the revision)
     */
    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Blocking
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public ShardResponse shard(ShardRequestBody body) throws IOException {
        long start = System.nanoTime();
        SealedDataset sealed;
        try {
            sealed = sharder.shard(toRequest(body), ledger);
            if (!sealed.alreadySealed()) {
                List<StowageEvent> events = DatasetEvents.of(sealed, clock);
                publisher.sendAll(events);
            }
        } catch (IOException | RuntimeException e) {
            metrics.refused(e, System.nanoTime() - start);
            throw e;
        }
        metrics.built(sealed.shards(), sealed.alreadySealed(), System.nanoTime() - start);
        var manifest = sealed.manifest();
        return new ShardResponse(manifest.dataset(), manifest.revision(),
                AssetIds.dataset(manifest.dataset(), manifest.revision()), sealed.shards().size(),
                manifest.memberCount(), manifest.memberBytes(), sealed.manifestFile().path().toString(),
                sealed.manifestFile().sha256(), sealed.shards().stream().map(s -> s.shard().sha256()).toList(),
                sealed.alreadySealed());
    }

    private ShardRequest toRequest(ShardRequestBody body) {
        if (body == null) {
            throw new DatasetInputException("the request has no JSON body");
        }
        String staging = body.stagingDir() == null ? config.stagingDir() : body.stagingDir();
        long target = ShardTarget.resolve(body.targetShardBytes(), config.targetShardBytes(),
                Boolean.TRUE.equals(body.allowSmallShards()) || config.allowSmallShards());
        return new ShardRequest(absolute("dir", body.dir()), body.dataset(), body.revision(), body.license(),
                body.source(), target, absolute("stagingDir", staging));
    }

    /**
     * A path field of a request body (also {@link BaselineResource}'s).
     *
     * @param field the JSON field's name, for the message
     * @param value the field's value
     * @return the value as an absolute path
     * @throws DatasetInputException (400) when the value is missing, blank, not a path, or relative
     */
    static java.nio.file.Path absolute(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new DatasetInputException(field + " is missing");
        }
        java.nio.file.Path path;
        try {
            path = java.nio.file.Path.of(value);
        } catch (InvalidPathException e) {
            throw new DatasetInputException(field + " is not a valid path: " + e.getReason());
        }
        if (!path.isAbsolute()) {
            throw new DatasetInputException(field + " must be an absolute path: " + value);
        }
        return path;
    }
}
