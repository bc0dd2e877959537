package io.stowage.events.ledger;

import io.stowage.events.Provenance;

import java.util.List;

/**
 * What the ledger knows of one asset, from the events about it.
 *
 * @param assetId        e.g. {@code dataset/speech/r1}
 * @param kind           "dataset" or "checkpoint"
 * @param localRoot      absolute local directory of the asset (dataset sourceDir, checkpoint stepDir)
 * @param sealed         true once dataset.sealed / checkpoint.published was seen
 * @param manifestPath   local path of the dataset or checkpoint manifest
 * @param manifestSha256 its SHA-256 as published
 * @param keyCheckpoint  true for a key checkpoint (needs a replica copy)
 * @param revision       dataset revision (null for checkpoints)
 * @param license        dataset licence (may be null)
 * @param source         dataset source (may be null)
 * @param provenance     checkpoint provenance (null for datasets)
 * @param objects        every object of the asset in every store
 * @param uploadFailures reasons of object.upload.failed events for the asset, oldest first
 * @param sealedEventId  event id of the dataset.sealed or checkpoint.published that set the manifest and the
 *                       metadata (revision, licence, source, provenance); null until seen
 * @param deadLetters    dead letters about the asset on its evidence topics that no object's later full read has
 *                       outweighed yet (the ledger's rule, docs/design/gate.md); empty (or null from an older ledger)
 *                       when there are none
 */
public record AssetEvidence(String assetId, String kind, String localRoot, boolean sealed, String manifestPath,
                            String manifestSha256, boolean keyCheckpoint, String revision, String license,
                            String source, Provenance provenance, List<ObjectEvidence> objects,
                            List<String> uploadFailures, String sealedEventId, List<DeadLetterNote> deadLetters) {

    /** Evidence without dead letters (the shape before they were exposed). */
    public AssetEvidence(String assetId, String kind, String localRoot, boolean sealed, String manifestPath,
                         String manifestSha256, boolean keyCheckpoint, String revision, String license,
                         String source, Provenance provenance, List<ObjectEvidence> objects,
                         List<String> uploadFailures, String sealedEventId) {
        this(assetId, kind, localRoot, sealed, manifestPath, manifestSha256, keyCheckpoint, revision, license, source,
                provenance, objects, uploadFailures, sealedEventId, List.of());
    }

    /** Evidence without the sealing event id (the shape before it was exposed). */
    public AssetEvidence(String assetId, String kind, String localRoot, boolean sealed, String manifestPath,
                         String manifestSha256, boolean keyCheckpoint, String revision, String license,
                         String source, Provenance provenance, List<ObjectEvidence> objects,
                         List<String> uploadFailures) {
        this(assetId, kind, localRoot, sealed, manifestPath, manifestSha256, keyCheckpoint, revision, license, source,
                provenance, objects, uploadFailures, null, List.of());
    }
}
