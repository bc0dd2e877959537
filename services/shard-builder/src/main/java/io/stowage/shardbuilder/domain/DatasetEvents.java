package io.stowage.shardbuilder.domain;

import io.stowage.events.AssetIds;
import io.stowage.events.DatasetSealed;
import io.stowage.events.EventMeta;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;
import io.stowage.shardformat.write.BuiltShard;
import io.stowage.shardformat.write.SealedDataset;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The events announcing a sealed dataset: consumes a {@link SealedDataset}, produces one
 * {@link ShardBuilt} per shard in index order and a final {@link DatasetSealed}. They form one flow
 * (correlation id = the asset id); each event is caused by the one before it.
 */
public final class DatasetEvents {
    private DatasetEvents() {
    }

    /** @return the events to publish, in order; the last is the {@link DatasetSealed} */
    public static List<StowageEvent> of(SealedDataset sealed, Clock clock) {
        var manifest = sealed.manifest();
        List<StowageEvent> events = new ArrayList<>(sealed.shards().size() + 1);
        StowageEvent previous = null;
        for (BuiltShard shard : sealed.shards()) {
            previous = ShardBuilt.of(metaAfter(previous, manifest.dataset(), manifest.revision(), clock),
                    manifest.dataset(), manifest.revision(), shard.index(), sealed.sourceDir().toString(),
                    shard.shard().path().toString(), shard.shard().bytes(), shard.shard().sha256(),
                    shard.members().path().toString(), shard.members().bytes(), shard.members().sha256(),
                    shard.entries().size(), shard.memberBytes());
            events.add(previous);
        }
        events.add(DatasetSealed.of(metaAfter(previous, manifest.dataset(), manifest.revision(), clock),
                manifest.dataset(), manifest.revision(), sealed.sourceDir().toString(),
                sealed.manifestFile().path().toString(), sealed.manifestFile().bytes(), sealed.manifestFile().sha256(),
                sealed.shards().size(), manifest.memberCount(), manifest.memberBytes(),
                manifest.license(), manifest.source()));
        return events;
    }

    private static EventMeta metaAfter(StowageEvent previous, String dataset, String revision, Clock clock) {
        return previous == null
                ? EventMeta.first(AssetIds.dataset(dataset, revision), clock)
                : EventMeta.causedBy(previous, clock);
    }
}
