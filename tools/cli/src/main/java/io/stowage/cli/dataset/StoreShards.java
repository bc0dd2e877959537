package io.stowage.cli.dataset;

import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import io.stowage.events.manifest.DatasetManifest;
import io.stowage.events.manifest.ShardEntry;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.StoreException;
import io.stowage.store.s3.S3ObjectReader;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * Finds a dataset revision's shards in the store for {@code stowage dataset verify --dataset D --revision R}: reads
 * {@code datasets/D/R/manifest.json} through the read-only {@link S3ObjectReader} and yields each shard with its
 * member manifest key, content address and size from that manifest ({@link ManifestShards}).
 */
public final class StoreShards {
    private final S3ObjectReader reader;

    /** @param reader the primary bucket, read-only */
    public StoreShards(S3ObjectReader reader) {
        this.reader = reader;
    }

    /**
     * @return the shards of the revision in index order
     * @throws CliException (exit 1) when the revision has no dataset manifest in the store, or it cannot be read
     */
    public List<ShardToCheck> find(String dataset, String revision) {
        String key = ObjectKeys.datasetManifest(dataset, revision);
        DatasetManifest manifest;
        try (InputStream in = reader.open(key)) {
            manifest = EventCodec.mapper().readValue(in, DatasetManifest.class);
        } catch (ObjectNotFoundException e) {
            throw new CliException(CliException.FAILED, "no dataset " + dataset + "/" + revision + " in the "
                    + reader.storeName() + " store (no " + key + ")", e);
        } catch (IOException | StoreException e) {
            throw new CliException(CliException.FAILED, "cannot read " + key + ": " + e.getMessage(), e);
        }
        return manifest.shards().stream().map(this::shard).toList();
    }

    private ShardToCheck shard(ShardEntry entry) {
        return ManifestShards.of(entry, entry.key(), () -> reader.open(entry.key()), () -> reader.open(entry.membersKey()),
                entry.membersKey());
    }
}
