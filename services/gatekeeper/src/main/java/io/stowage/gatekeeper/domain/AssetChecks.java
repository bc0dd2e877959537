package io.stowage.gatekeeper.domain;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.stowage.events.AssetIds;
import io.stowage.events.EventCodec;
import io.stowage.events.InvalidEventException;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Provenance;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.manifest.BaselineManifest;
import io.stowage.events.manifest.CheckpointManifest;
import io.stowage.events.manifest.DatasetManifest;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.events.manifest.ModelManifest;
import io.stowage.events.manifest.ShardEntry;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks conditions 1 to 4 for one asset from its ledger evidence and its local manifests, and
 * returns the files those manifests account for (input of condition 5).
 */
final class AssetChecks {
    private static final ObjectMapper MAPPER = EventCodec.mapper();

    private final Findings findings;
    private final ObjectChecks objects;
    private final TrustedFiles files;

    AssetChecks(LocalTree tree, Findings findings) {
        this.findings = findings;
        this.objects = new ObjectChecks(findings);
        this.files = new TrustedFiles(tree, findings);
    }

    /** @return every object whose ledger evidence conditions 1 and 4 relied on, for {@link StoreChecks} */
    java.util.Set<StoreLook.StoredObject> reliedOn() {
        return objects.reliedOn();
    }

    /** @return the objects whose full read OK condition 2 counts, for {@link StoreChecks#reread} */
    java.util.Set<StoreLook.StoredObject> fullyRead() {
        return objects.fullyRead();
    }

    /** Condition 2 at decision time: see {@link ObjectChecks#requireFullReadStillStored(java.util.Set)}. */
    void requireFullReadStillStored(java.util.Set<StoreLook.StoredObject> notAsStored) {
        objects.requireFullReadStillStored(notAsStored);
    }

    /**
     * @return path relative to the asset's local root ('/'-separated) to its manifest entry; empty
     *         when the asset's manifests cannot be trusted (then a condition-1 failure is recorded)
     */
    Map<String, AccountedFiles.Accounted> check(AssetEvidence asset) {
        objects.requireNoBadEvidence(asset);
        objects.requireFullRead(asset);
        findings.prove(1, asset.sealedEventId());
        findings.prove(3, asset.sealedEventId());
        try {
            return switch (String.valueOf(asset.kind())) {
                case "dataset" -> checkDataset(asset);
                case "checkpoint" -> checkCheckpoint(asset);
                case "baseline" -> checkBaseline(asset);
                case "model" -> checkModel(asset);
                default -> {
                    findings.fail(GateCheck.UNSUPPORTED_KIND, asset.assetId() + " (" + asset.kind() + ")");
                    yield Map.of();
                }
            };
        } catch (IOException | InvalidEventException | IllegalArgumentException e) {
            findings.fail(GateCheck.MANIFEST_UNREADABLE, asset.assetId() + ": " + e.getMessage());
            return Map.of();
        }
    }

    private Map<String, AccountedFiles.Accounted> checkDataset(AssetEvidence asset) throws IOException {
        if (blank(asset.revision()) || (blank(asset.license()) && blank(asset.source()))) {
            findings.fail(GateCheck.DATASET_METADATA_MISSING, asset.assetId());
        } else {
            findings.note(3, asset.assetId() + " has revision " + asset.revision() + " and "
                    + (blank(asset.license()) ? "source" : "licence " + asset.license()));
        }
        findings.note(4, asset.assetId() + " is a dataset: no second copy required");
        byte[] bytes = files.manifest(asset);
        if (bytes == null) {
            return Map.of();
        }
        DatasetManifest manifest = MAPPER.readValue(bytes, DatasetManifest.class);
        objects.requirePrimary(asset, ObjectKeys.datasetManifest(manifest.dataset(), manifest.revision()),
                bytes.length, asset.manifestSha256());
        Map<String, AccountedFiles.Accounted> accounted = new HashMap<>();
        for (ShardEntry shard : manifest.shards()) {
            objects.requirePrimary(asset, shard.key(), shard.bytes(), shard.sha256());
            List<String> membersEvidence = objects.requirePrimary(asset, shard.membersKey(), shard.membersBytes(),
                    shard.membersSha256());
            String membersPath = objects.localPathOf(asset, shard.membersKey());
            if (membersPath != null) {
                files.members(Path.of(membersPath), shard.membersSha256()).forEach(member -> accounted.put(
                        member.path(), new AccountedFiles.Accounted(member, membersEvidence)));
            }
        }
        findings.note(1, asset.assetId() + ": manifest and " + manifest.shards().size()
                + " shard(s) with member manifests checked against the primary store");
        return accounted;
    }

    /**
     * A hash-bound baseline archive: its baseline manifest (trusted by the SHA-256 of
     * {@code baseline.archived}) names one archive and one member manifest; both must be in the primary store with
     * HEAD OK (condition 1), and the member manifest's entries account for the files of the directory (condition 5).
     * Condition 3 is met by the model and milestone the archive is named by; no second copy is required (4).
     */
    private Map<String, AccountedFiles.Accounted> checkBaseline(AssetEvidence asset) throws IOException {
        byte[] bytes = files.manifest(asset);
        if (bytes == null) {
            return Map.of();
        }
        BaselineManifest manifest = MAPPER.readValue(bytes, BaselineManifest.class);
        if (!BaselineManifest.FORMAT.equals(manifest.format())
                || !asset.assetId().equals(AssetIds.baseline(manifest.model(), manifest.milestone()))) {
            findings.fail(GateCheck.MANIFEST_UNREADABLE, asset.assetId() + ": baseline manifest " + asset.manifestPath()
                    + " (format " + manifest.format() + ") does not describe this asset");
            return Map.of();
        }
        findings.note(3, asset.assetId() + " is named by model " + manifest.model() + " and milestone "
                + manifest.milestone());
        findings.note(4, asset.assetId() + " is a baseline archive: no second copy required");
        objects.requirePrimary(asset, ObjectKeys.baselineArchive(manifest.model(), manifest.milestone(),
                manifest.sha256()), manifest.bytes(), manifest.sha256());
        String membersKey = ObjectKeys.baselineMembers(manifest.model(), manifest.milestone(), manifest.sha256());
        List<String> membersEvidence = objects.requirePrimary(asset, membersKey, manifest.membersBytes(),
                manifest.membersSha256());
        Map<String, AccountedFiles.Accounted> accounted = new HashMap<>();
        String membersPath = objects.localPathOf(asset, membersKey);
        if (membersPath != null) {
            files.members(Path.of(membersPath), manifest.membersSha256()).forEach(member -> accounted.put(
                    member.path(), new AccountedFiles.Accounted(member, membersEvidence)));
        }
        findings.note(1, asset.assetId() + ": archive " + manifest.sha256() + " and its member manifest checked"
                + " against the primary store");
        return accounted;
    }

    private Map<String, AccountedFiles.Accounted> checkCheckpoint(AssetEvidence asset) throws IOException {
        Provenance provenance = asset.provenance();
        if (provenance == null || !provenance.complete()) {
            findings.fail(GateCheck.PROVENANCE_MISSING, asset.assetId());
        } else {
            findings.note(3, asset.assetId() + " has code commit " + provenance.codeCommit()
                    + ", config and data manifest hashes");
        }
        byte[] bytes = files.manifest(asset);
        if (bytes == null) {
            return Map.of();
        }
        CheckpointManifest manifest = MAPPER.readValue(bytes, CheckpointManifest.class);
        boolean key = asset.keyCheckpoint() || manifest.key();
        Map<String, AccountedFiles.Accounted> accounted = new HashMap<>();
        for (MemberEntry file : manifest.files()) {
            String objectKey = ObjectKeys.checkpointFile(manifest.experiment(), manifest.run(), manifest.step(),
                    file.sha256(), file.path());
            List<String> evidence = objects.requirePrimary(asset, objectKey, file.bytes(), file.sha256());
            if (key) {
                objects.requireReplica(asset, objectKey, file.bytes(), file.sha256());
            }
            accounted.put(file.path(), new AccountedFiles.Accounted(file, evidence));
        }
        findings.note(1, asset.assetId() + ": manifest and " + manifest.files().size()
                + " checkpoint file(s) checked against the primary store");
        findings.note(4, key ? asset.assetId() + ": key checkpoint, " + manifest.files().size()
                + " file(s) checked against the replica store" : asset.assetId() + " is not a key checkpoint: no second copy required");
        return accounted;
    }

    /**
     * A model revision: its model manifest (trusted by the SHA-256 of {@code model.published}) names every file; each
     * file and the manifest must be in the primary store with HEAD OK (condition 1), and the files account for the
     * directory (condition 5). Condition 3 needs both a licence and a source, in the ledger and in the manifest; no
     * second copy is required (4).
     */
    private Map<String, AccountedFiles.Accounted> checkModel(AssetEvidence asset) throws IOException {
        byte[] bytes = files.manifest(asset);
        if (bytes == null) {
            return Map.of();
        }
        ModelManifest manifest = MAPPER.readValue(bytes, ModelManifest.class);
        if (!ModelManifest.FORMAT.equals(manifest.format()) || manifest.files() == null
                || !asset.assetId().equals(AssetIds.model(manifest.model(), manifest.revision()))) {
            findings.fail(GateCheck.MANIFEST_UNREADABLE, asset.assetId() + ": model manifest " + asset.manifestPath()
                    + " (format " + manifest.format() + ") does not describe this asset");
            return Map.of();
        }
        if (blank(asset.license()) || blank(asset.source()) || blank(manifest.license()) || blank(manifest.source())) {
            findings.fail(GateCheck.MODEL_METADATA_MISSING, asset.assetId());
        } else {
            findings.note(3, asset.assetId() + " has licence " + manifest.license() + " and source " + manifest.source());
        }
        findings.note(4, asset.assetId() + " is a model revision: no second copy required");
        objects.requirePrimary(asset, ObjectKeys.modelManifest(manifest.model(), manifest.revision()), bytes.length,
                asset.manifestSha256());
        Map<String, AccountedFiles.Accounted> accounted = new HashMap<>();
        for (MemberEntry file : manifest.files()) {
            String objectKey = ObjectKeys.modelFile(manifest.model(), manifest.revision(), file.sha256(), file.path());
            List<String> evidence = objects.requirePrimary(asset, objectKey, file.bytes(), file.sha256());
            accounted.put(file.path(), new AccountedFiles.Accounted(file, evidence));
        }
        findings.note(1, asset.assetId() + ": model manifest and " + manifest.files().size()
                + " model file(s) checked against the primary store");
        return accounted;
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
