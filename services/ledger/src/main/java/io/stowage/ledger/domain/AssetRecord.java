package io.stowage.ledger.domain;

import io.stowage.events.Provenance;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.DeadLetterNote;
import io.stowage.events.ledger.ObjectEvidence;

import java.util.List;

/**
 * The ledger's projection of one asset (a dataset revision or a checkpoint step), built from
 * shard.built, dataset.sealed and checkpoint.published events.
 *
 * @param kind      "dataset" or "checkpoint"
 * @param localRoot absolute local directory (dataset sourceDir, checkpoint stepDir); null until known
 * @param sealedEventId event id of the dataset.sealed / checkpoint.published that set the manifest and metadata
 */
public record AssetRecord(String assetId, String kind, String localRoot, boolean sealed, String manifestPath,
                          String manifestSha256, boolean keyCheckpoint, String revision, String license,
                          String source, String codeCommit, String configSha256, String dataManifestSha256,
                          String sealedEventId) {

    /** A record without the sealing event id. */
    public AssetRecord(String assetId, String kind, String localRoot, boolean sealed, String manifestPath,
                       String manifestSha256, boolean keyCheckpoint, String revision, String license,
                       String source, String codeCommit, String configSha256, String dataManifestSha256) {
        this(assetId, kind, localRoot, sealed, manifestPath, manifestSha256, keyCheckpoint, revision, license, source,
                codeCommit, configSha256, dataManifestSha256, null);
    }

    /** @return an asset known only by its id and kind */
    public static AssetRecord empty(String assetId, String kind) {
        return new AssetRecord(assetId, kind, null, false, null, null, false, null, null, null, null, null, null);
    }

    /** @return the API shape, with the given objects and upload failure reasons and no dead letters */
    public AssetEvidence toEvidence(List<ObjectEvidence> objects, List<String> uploadFailures) {
        return toEvidence(objects, uploadFailures, List.of());
    }

    /** @return the API shape, with the given objects, upload failure reasons and outstanding dead letters */
    public AssetEvidence toEvidence(List<ObjectEvidence> objects, List<String> uploadFailures,
                                    List<DeadLetterNote> deadLetters) {
        Provenance provenance = "checkpoint".equals(kind)
                ? new Provenance(codeCommit, configSha256, dataManifestSha256) : null;
        return new AssetEvidence(assetId, kind, localRoot, sealed, manifestPath, manifestSha256, keyCheckpoint,
                revision, license, source, provenance, List.copyOf(objects), List.copyOf(uploadFailures), sealedEventId,
                List.copyOf(deadLetters));
    }
}
