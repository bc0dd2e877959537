package io.stowage.ledger.persistence;

import io.smallrye.mutiny.Uni;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.DatasetSealed;
import io.stowage.events.ObjectUploadFailed;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;
import io.stowage.ledger.domain.AssetProjection;
import io.stowage.ledger.domain.AssetRecord;
import io.stowage.ledger.domain.ObjectProjection;
import io.stowage.ledger.domain.ObjectRecord;
import io.stowage.ledger.domain.ReleaseProjection;
import io.stowage.ledger.domain.ReleaseRecord;
import io.stowage.ledger.domain.UploadFailureRecord;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.function.UnaryOperator;

/**
 * Applies one decoded event to the projection tables (asset, object, upload failure, release) in the
 * caller's transaction: it loads the row, lets the domain projection compute the new state, writes it back.
 */
@ApplicationScoped
public class ProjectionWriter {
    // the provider-adapter's volume and pod events (issue #6) have their own projection
    @jakarta.inject.Inject
    ResourceProjectionWriter resources;

    /** @return completes when the change is queued in the current session; fails for an event type with no projection */
    public Uni<Void> apply(StowageEvent event) {
        if (resources.handles(event)) {
            return resources.apply(event);
        }
        if (event instanceof ShardBuilt e) {
            return asset(e.assetId(), a -> AssetProjection.apply(a, e));
        } else if (event instanceof DatasetSealed e) {
            return asset(e.assetId(), a -> AssetProjection.apply(a, e));
        } else if (event instanceof CheckpointPublished e) {
            return asset(e.assetId(), a -> AssetProjection.apply(a, e));
        } else if (event instanceof ObjectUploaded e) {
            return object(e.store(), e.bucket(), e.key(), o -> ObjectProjection.apply(o, e));
        } else if (event instanceof ObjectVerified e) {
            return object(e.store(), e.bucket(), e.key(), o -> ObjectProjection.apply(o, e));
        } else if (event instanceof ObjectUploadFailed e) {
            return LedgerUploadFailure.from(new UploadFailureRecord(e.meta().eventId(), e.assetId(), e.store(),
                    e.key(), e.reason(), e.permanent(), e.meta().time())).persist().replaceWithVoid();
        }
        String requestId = ReleaseProjection.requestIdOf(event);
        if (requestId != null) {
            return release(requestId, r -> ReleaseProjection.apply(r, event));
        }
        return Uni.createFrom().failure(new IllegalStateException("no projection for " + event.topic()));
    }

    private Uni<Void> asset(String assetId, UnaryOperator<AssetRecord> change) {
        return LedgerAsset.<LedgerAsset>findById(assetId).chain(row -> {
            AssetRecord next = change.apply(row == null ? null : row.toRecord());
            return row == null ? new LedgerAsset().set(next).persist().replaceWithVoid() : done(row.set(next));
        });
    }

    private Uni<Void> object(String store, String bucket, String key, UnaryOperator<ObjectRecord> change) {
        return LedgerObject.<LedgerObject>find("store = ?1 and bucket = ?2 and objectKey = ?3", store, bucket, key)
                .firstResult()
                .chain(row -> {
                    ObjectRecord next = change.apply(row == null ? null : row.toRecord());
                    return row == null ? new LedgerObject().set(next).persist().replaceWithVoid() : done(row.set(next));
                });
    }

    private Uni<Void> release(String requestId, UnaryOperator<ReleaseRecord> change) {
        return LedgerRelease.<LedgerRelease>findById(requestId).chain(row -> {
            ReleaseRecord next = change.apply(row == null ? null : row.toRecord());
            return row == null ? new LedgerRelease().set(next).persist().replaceWithVoid() : done(row.set(next));
        });
    }

    // a managed row is flushed when the transaction commits
    private static Uni<Void> done(Object ignored) {
        return Uni.createFrom().voidItem();
    }
}
