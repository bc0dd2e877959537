package io.stowage.ledger.domain;

import io.stowage.events.BaselineArchived;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.DatasetSealed;
import io.stowage.events.ModelPublished;
import io.stowage.events.Provenance;
import io.stowage.events.ShardBuilt;

/**
 * Folds asset events into an {@link AssetRecord}. Events of one asset may arrive in any order
 * across topics, so each event sets only the fields it knows and never clears another's.
 */
public final class AssetProjection {
    private AssetProjection() {
    }

    /** @param current the stored asset, or null when the ledger has not seen it yet */
    public static AssetRecord apply(AssetRecord current, ShardBuilt event) {
        AssetRecord a = current != null ? current : AssetRecord.empty(event.assetId(), "dataset");
        return new AssetRecord(a.assetId(), "dataset", event.sourceDir(), a.sealed(), a.manifestPath(),
                a.manifestSha256(), false, event.revision(), a.license(), a.source(), null, null, null,
                a.sealedEventId());
    }

    /** @param current the stored asset, or null when the ledger has not seen it yet */
    public static AssetRecord apply(AssetRecord current, DatasetSealed event) {
        AssetRecord a = current != null ? current : AssetRecord.empty(event.assetId(), "dataset");
        return new AssetRecord(a.assetId(), "dataset", event.sourceDir(), true, event.manifestPath(),
                event.manifestSha256(), false, event.revision(), event.license(), event.source(), null, null, null,
                event.meta().eventId());
    }

    /** @param current the stored asset, or null when the ledger has not seen it yet */
    public static AssetRecord apply(AssetRecord current, CheckpointPublished event) {
        String assetId = current != null ? current.assetId() : event.assetId();
        Provenance p = event.provenance();
        return new AssetRecord(assetId, "checkpoint", event.stepDir(), true, event.manifestPath(),
                event.manifestSha256(), event.key(), null, null, null,
                p.codeCommit(), p.configSha256(), p.dataManifestSha256(), event.meta().eventId());
    }

    /**
     * A baseline archive: kind {@code baseline}, local root = the archived directory, sealed, its manifest =
     * the baseline manifest (the gate reads it, trusted by this SHA-256), revision = the milestone.
     *
     * @param current the stored asset, or null when the ledger has not seen it yet
     */
    public static AssetRecord apply(AssetRecord current, BaselineArchived event) {
        String assetId = current != null ? current.assetId() : event.assetId();
        return new AssetRecord(assetId, "baseline", event.sourceDir(), true, event.manifestPath(),
                event.manifestSha256(), false, event.milestone(), null, null, null, null, null, event.meta().eventId());
    }

    /**
     * A model revision: kind {@code model}, local root = the directory it was published from, sealed, its manifest =
     * the model manifest in local staging (the gate reads it, trusted by this SHA-256), with revision, licence and
     * source.
     *
     * @param current the stored asset, or null when the ledger has not seen it yet
     */
    public static AssetRecord apply(AssetRecord current, ModelPublished event) {
        String assetId = current != null ? current.assetId() : event.assetId();
        return new AssetRecord(assetId, "model", event.sourceDir(), true, event.manifestPath(), event.manifestSha256(),
                false, event.revision(), event.license(), event.source(), null, null, null, event.meta().eventId());
    }
}
