package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.stowage.events.BaselineArchived;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.DatasetSealed;
import io.stowage.events.ObjectUploadFailed;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;
import io.stowage.ledger.domain.AssetProjection;
import io.stowage.ledger.domain.AssetRecord;
import io.stowage.ledger.domain.CheckpointStepProjection;
import io.stowage.ledger.domain.CheckpointStepRecord;
import io.stowage.ledger.domain.ObjectProjection;
import io.stowage.ledger.domain.ObjectRecord;
import io.stowage.ledger.domain.ReleaseProjection;
import io.stowage.ledger.domain.ReleaseRecord;
import io.stowage.ledger.domain.UploadFailureRecord;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Applies one decoded event to the projection tables (asset, object, upload failure, release, checkpoint step,
 * model promotion) in the caller's transaction: it loads the row, lets the domain projection compute the new state,
 * writes it back.
 * For a batch, {@link #preload} first loads every row the batch touches in three queries, so that applying the
 * events needs no further query (and the inserts and updates go to PostgreSQL in JDBC-style batches at flush).
 */
@ApplicationScoped
public class ProjectionWriter {
    // the provider-adapter's volume and pod events have their own projection
    @jakarta.inject.Inject
    ResourceProjectionWriter resources;
    // the training runs' accounting events have their own table
    @jakarta.inject.Inject
    RunAttemptWriter runs;

    /** The object rows of one batch transaction by address, loaded up front; new rows are added as they are persisted. */
    public static final class Preloaded {
        private final Map<String, LedgerObject> objects = new HashMap<>();
        private final boolean complete;

        private Preloaded(boolean complete) {
            this.complete = complete;
        }

        /** @return how many object rows were loaded or added */
        int objectRows() {
            return objects.size();
        }

        /** @return an empty cache that is not authoritative (every lookup goes to the database) */
        public static Preloaded none() {
            return new Preloaded(false);
        }
    }

    /**
     * Loads, into the current session, every asset, object and release row that {@code events} touch.
     *
     * @return the object rows by address; an address absent from it is not in the database
     */
    public Uni<Preloaded> preload(List<StowageEvent> events) {
        List<String> assetIds = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        List<String> requestIds = new ArrayList<>();
        for (StowageEvent event : events) {
            if (event instanceof ShardBuilt || event instanceof DatasetSealed || event instanceof CheckpointPublished
                    || event instanceof BaselineArchived || event instanceof io.stowage.events.ModelPublished) {
                assetIds.add(event.assetId());
            } else if (event instanceof ObjectUploaded e) {
                keys.add(e.key());
            } else if (event instanceof ObjectVerified e) {
                keys.add(e.key());
            } else if (ReleaseProjection.requestIdOf(event) != null) {
                requestIds.add(ReleaseProjection.requestIdOf(event));
            }
        }
        Preloaded preloaded = new Preloaded(true);
        Uni<Void> objects = keys.isEmpty() ? Uni.createFrom().voidItem()
                : byIndex(LedgerObject.<LedgerObject>list("objectKey in ?1", keys.stream().distinct().toList()))
                        .invoke(rows -> rows.forEach(row -> preloaded.objects.put(
                                address(row.store, row.bucket, row.objectKey), row))).replaceWithVoid();
        return objects
                .chain(() -> assetIds.isEmpty() ? Uni.createFrom().voidItem() : LedgerAsset.list("assetId in ?1", assetIds).replaceWithVoid())
                .chain(() -> requestIds.isEmpty() ? Uni.createFrom().voidItem() : LedgerRelease.list("requestId in ?1", requestIds).replaceWithVoid())
                .replaceWith(preloaded);
    }

    /**
     * Runs {@code query} with sequential scans off for this transaction, then on again. A key list of a few hundred
     * object keys matches about as many rows, but PostgreSQL's planner, without statistics of a table that grew since
     * its last {@code ANALYZE} (a young ledger, a backlog after an outage), takes each key for 0.5 % of the table and
     * reads all of it: measured, a batch's preload scanned 72,000 rows (24 ms) where the index finds its 250 (under
     * 1 ms), and the scan grows with the table. The query reads by {@code ledger_object_key} then.
     */
    private static <T> Uni<T> byIndex(Uni<T> query) {
        return Panache.getSession().chain(session -> session.createNativeQuery("set local enable_seqscan = off")
                .executeUpdate()
                .chain(() -> query)
                .call(() -> session.createNativeQuery("set local enable_seqscan = on").executeUpdate()));
    }

    /** @return completes when the change is queued in the current session; fails for an event type with no projection */
    public Uni<Void> apply(StowageEvent event) {
        return apply(event, Preloaded.none());
    }

    /**
     * @param preloaded the rows loaded by {@link #preload} in this transaction, or {@link Preloaded#none()}
     * @return completes when the change is queued in the current session; fails for an event type with no projection
     */
    public Uni<Void> apply(StowageEvent event, Preloaded preloaded) {
        if (resources.handles(event)) {
            return resources.apply(event);
        }
        if (runs.handles(event)) {
            return runs.apply(event);
        }
        if (event instanceof ShardBuilt e) {
            return asset(e.assetId(), a -> AssetProjection.apply(a, e));
        } else if (event instanceof DatasetSealed e) {
            return asset(e.assetId(), a -> AssetProjection.apply(a, e));
        } else if (event instanceof CheckpointPublished e) {
            return asset(e.assetId(), a -> AssetProjection.apply(a, e))
                    .chain(() -> checkpointStep(e.assetId(), s -> CheckpointStepProjection.apply(s, e)));
        } else if (event instanceof io.stowage.events.CheckpointPinned e) {
            return checkpointStep(e.assetId(), s -> CheckpointStepProjection.apply(s, e));
        } else if (event instanceof io.stowage.events.CheckpointExpired e) {
            return checkpointStep(e.assetId(), s -> CheckpointStepProjection.apply(s, e)).chain(() -> expireObjects(e, preloaded));
        } else if (event instanceof BaselineArchived e) {
            return asset(e.assetId(), a -> AssetProjection.apply(a, e));
        } else if (event instanceof io.stowage.events.ModelPublished e) {
            return asset(e.assetId(), a -> AssetProjection.apply(a, e)).chain(() -> promotion(e));
        } else if (event instanceof ObjectUploaded e) {
            return object(preloaded, e.store(), e.bucket(), e.key(), o -> ObjectProjection.apply(o, e));
        } else if (event instanceof ObjectVerified e) {
            return object(preloaded, e.store(), e.bucket(), e.key(), o -> ObjectProjection.apply(o, e));
        } else if (event instanceof ObjectUploadFailed e) {
            return LedgerUploadFailure.from(new UploadFailureRecord(e.meta().eventId(), e.assetId(), e.store(),
                    e.key(), e.reason(), e.permanent(), e.meta().time())).persist().replaceWithVoid();
        }
        String requestId = ReleaseProjection.requestIdOf(event);
        if (requestId != null) {
            return release(requestId, r -> ReleaseProjection.apply(r, event));
        }
        if (event instanceof io.stowage.events.ReleaseRefused e) {
            return LedgerReleaseRefusal.from(e).persist().replaceWithVoid(); // who was refused and why, never a token
        }
        if (event instanceof io.stowage.events.GateInventory) {
            // kept in ledger_event only: the parts of a large inventory, found by the request's asset id; the
            // release's plan keeps the decision's counts and digest
            return Uni.createFrom().voidItem();
        }
        if (event instanceof io.stowage.events.ModelShared) {
            return Uni.createFrom().voidItem(); // kept in ledger_event only: who shared which revision for how long
        }
        if (event instanceof io.stowage.events.ArchivePublished) {
            return Uni.createFrom().voidItem(); // kept in ledger_event only; its object rows come from object.uploaded
        }
        if (event instanceof io.stowage.events.RetentionDecided || event instanceof io.stowage.events.RetentionRefused) {
            // kept in ledger_event only: the signed decision and what the executor refused; the expiry itself is
            // projected from checkpoint.expired
            return Uni.createFrom().voidItem();
        }
        return Uni.createFrom().failure(new IllegalStateException("no projection for " + event.topic()));
    }

    private Uni<Void> asset(String assetId, UnaryOperator<AssetRecord> change) {
        return LedgerAsset.<LedgerAsset>findById(assetId).chain(row -> {
            AssetRecord next = change.apply(row == null ? null : row.toRecord());
            return row == null ? new LedgerAsset().set(next).persist().replaceWithVoid() : done(row.set(next));
        });
    }

    private Uni<Void> checkpointStep(String assetId, UnaryOperator<CheckpointStepRecord> change) {
        return LedgerCheckpointStep.<LedgerCheckpointStep>findById(assetId).chain(row -> {
            CheckpointStepRecord next = change.apply(row == null ? null : row.toRecord());
            return row == null ? new LedgerCheckpointStep().set(next).persist().replaceWithVoid() : done(row.set(next));
        });
    }

    // a revision promoted from a checkpoint step: the step lists it, the revision names the step
    private Uni<Void> promotion(io.stowage.events.ModelPublished e) {
        if (e.fromCheckpoint() == null) {
            return Uni.createFrom().voidItem();
        }
        return LedgerModelPromotion.<LedgerModelPromotion>findById(e.assetId()).chain(row -> {
            io.stowage.ledger.domain.ModelPromotionRecord current = row == null ? null : row.toRecord();
            io.stowage.ledger.domain.ModelPromotionRecord next = io.stowage.ledger.domain.ModelPromotionProjection.apply(current, e);
            return row == null && next != null ? new LedgerModelPromotion().set(next).persist().replaceWithVoid()
                    : Uni.createFrom().voidItem();
        });
    }

    // the deleted objects leave the object projection (status, audit store and the gate then see them gone);
    // the events that stored and verified them stay in ledger_event
    private Uni<Void> expireObjects(io.stowage.events.CheckpointExpired e, Preloaded preloaded) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (io.stowage.events.CheckpointExpired.ExpiredObject o : e.objects()) {
            preloaded.objects.remove(address(o.store(), o.bucket(), o.key()));
            chain = chain.chain(() -> LedgerObject.delete("store = ?1 and bucket = ?2 and objectKey = ?3 and assetId = ?4",
                    o.store(), o.bucket(), o.key(), e.assetId()).replaceWithVoid());
        }
        return chain;
    }

    private Uni<Void> object(Preloaded preloaded, String store, String bucket, String key, UnaryOperator<ObjectRecord> change) {
        String address = address(store, bucket, key);
        Uni<LedgerObject> current = preloaded.complete || preloaded.objects.containsKey(address)
                ? Uni.createFrom().item(preloaded.objects.get(address))
                : LedgerObject.<LedgerObject>find("store = ?1 and bucket = ?2 and objectKey = ?3", store, bucket, key).firstResult();
        return current.chain(row -> {
            ObjectRecord next = change.apply(row == null ? null : row.toRecord());
            if (row != null) {
                return done(row.set(next));
            }
            LedgerObject created = new LedgerObject().set(next);
            preloaded.objects.put(address, created);
            return created.persist().replaceWithVoid();
        });
    }

    private static String address(String store, String bucket, String key) {
        return store + "\u0000" + bucket + "\u0000" + key;
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
