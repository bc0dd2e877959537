package io.stowage.ledger.domain;

import io.stowage.events.BaselineArchived;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.DatasetSealed;
import io.stowage.events.ObjectUploadFailed;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Folds a stream of events, read again from the topics, into the projections the live ledger keeps (assets,
 * objects, upload failures, releases, checkpoint steps, model promotions) — in memory, with the same domain
 * projections as the live {@code ProjectionWriter}, and the same rule that an event id counts once. Used by {@code audit replay}.
 * An event type with no projection is counted in {@link #unprojected()}, as the live ledger would refuse it.
 *
 * <p>The topics are read partition by partition, so events of different topics reach the fold in no global order,
 * while the live ledger consumed an object's upload before the expiry that deleted it (the executor deletes only what
 * the ledger already holds verified). A {@code checkpoint.expired} therefore removes an object whatever the order: an
 * upload or verification of that address whose event time is not after the expiry's is dropped, whether it comes
 * before or after the expiry in the fold; one after it (a later re-upload of the key) counts as it would live.
 */
public final class ProjectionFold {
    private final Map<String, AssetRecord> assets = new LinkedHashMap<>();
    private final Map<String, ObjectRecord> objects = new LinkedHashMap<>();
    private final Map<String, UploadFailureRecord> failures = new LinkedHashMap<>();
    private final Map<String, ReleaseRecord> releases = new LinkedHashMap<>();
    private final Map<String, CheckpointStepRecord> steps = new LinkedHashMap<>();
    private final Map<String, ModelPromotionRecord> promotions = new LinkedHashMap<>();
    private final Map<String, Instant> expiredAt = new HashMap<>();
    private final Set<String> seen = new HashSet<>();
    private long applied;
    private long duplicates;
    private long unprojected;

    // an expiry of this address at or after the event's time: the event was consumed before it by the live ledger
    private boolean deletedBefore(String address, Instant eventTime) {
        Instant expiry = expiredAt.get(address);
        return expiry != null && !eventTime.isAfter(expiry);
    }

    /** Applies {@code event} unless its event id was already applied. */
    public void apply(StowageEvent event) {
        if (!seen.add(event.meta().eventId())) {
            duplicates++;
            return;
        }
        applied++;
        if (event instanceof ShardBuilt e) {
            assets.put(e.assetId(), AssetProjection.apply(assets.get(e.assetId()), e));
        } else if (event instanceof DatasetSealed e) {
            assets.put(e.assetId(), AssetProjection.apply(assets.get(e.assetId()), e));
        } else if (event instanceof CheckpointPublished e) {
            assets.put(e.assetId(), AssetProjection.apply(assets.get(e.assetId()), e));
            steps.put(e.assetId(), CheckpointStepProjection.apply(steps.get(e.assetId()), e));
        } else if (event instanceof BaselineArchived e) {
            assets.put(e.assetId(), AssetProjection.apply(assets.get(e.assetId()), e));
        } else if (event instanceof io.stowage.events.ModelPublished e) {
            assets.put(e.assetId(), AssetProjection.apply(assets.get(e.assetId()), e));
            ModelPromotionRecord promotion = ModelPromotionProjection.apply(promotions.get(e.assetId()), e);
            if (promotion != null) {
                promotions.put(e.assetId(), promotion);
            }
        } else if (event instanceof ObjectUploaded e) {
            String address = address(e.store(), e.bucket(), e.key());
            if (!deletedBefore(address, e.meta().time())) {
                objects.put(address, ObjectProjection.apply(objects.get(address), e));
            }
        } else if (event instanceof ObjectVerified e) {
            String address = address(e.store(), e.bucket(), e.key());
            if (!deletedBefore(address, e.meta().time())) {
                objects.put(address, ObjectProjection.apply(objects.get(address), e));
            }
        } else if (event instanceof ObjectUploadFailed e) {
            failures.put(e.meta().eventId(), new UploadFailureRecord(e.meta().eventId(), e.assetId(), e.store(), e.key(),
                    e.reason(), e.permanent(), e.meta().time()));
        } else if (event instanceof io.stowage.events.CheckpointExpired e) {
            steps.put(e.assetId(), CheckpointStepProjection.apply(steps.get(e.assetId()), e));
            // as the live ledger: the deleted objects leave the object projection
            e.objects().forEach(o -> {
                String address = address(o.store(), o.bucket(), o.key());
                ObjectRecord current = objects.get(address);
                if (current != null && e.assetId().equals(current.assetId())
                        && (current.uploadedAt() == null || !current.uploadedAt().isAfter(e.meta().time()))) {
                    objects.remove(address);
                }
                if (current == null || e.assetId().equals(current.assetId())) {
                    expiredAt.merge(address, e.meta().time(), (a, b) -> a.isAfter(b) ? a : b);
                }
            });
        } else if (event instanceof io.stowage.events.CheckpointPinned e) {
            steps.put(e.assetId(), CheckpointStepProjection.apply(steps.get(e.assetId()), e));
        } else if (event instanceof io.stowage.events.RunStarted || event instanceof io.stowage.events.RunProgress
                || event instanceof io.stowage.events.RunFinished) {
            // projected only into ledger_run_attempt, which the replay does not compare yet
            return;
        } else if (event instanceof io.stowage.events.RetentionDecided
                || event instanceof io.stowage.events.RetentionRefused) {
            // kept in ledger_event only, as the live ledger does
            return;
        } else if (ReleaseProjection.requestIdOf(event) != null) {
            String requestId = ReleaseProjection.requestIdOf(event);
            releases.put(requestId, ReleaseProjection.apply(releases.get(requestId), event));
        } else {
            unprojected++;
        }
    }

    private static String address(String store, String bucket, String key) {
        return store + "\u0000" + bucket + "\u0000" + key;
    }

    /** @return the folded assets, in first-seen order */
    public Collection<AssetRecord> assets() {
        return assets.values();
    }

    /** @return the folded objects (one per store, bucket and key), in first-seen order */
    public Collection<ObjectRecord> objects() {
        return objects.values();
    }

    /** @return one record per object.upload.failed event */
    public Collection<UploadFailureRecord> uploadFailures() {
        return failures.values();
    }

    /** @return the folded release requests */
    public Collection<ReleaseRecord> releases() {
        return releases.values();
    }

    /** @return the folded retention rows of checkpoint steps ({@code ledger_checkpoint_step}), in first-seen order */
    public Collection<CheckpointStepRecord> checkpointSteps() {
        return steps.values();
    }

    /** @return the folded links of promoted model revisions ({@code ledger_model_promotion}), in first-seen order */
    public Collection<ModelPromotionRecord> modelPromotions() {
        return promotions.values();
    }

    /** @return events applied (distinct event ids) */
    public long applied() {
        return applied;
    }

    /** @return events skipped because their event id was applied before */
    public long duplicates() {
        return duplicates;
    }

    /** @return events of a type with no projection */
    public long unprojected() {
        return unprojected;
    }
}
