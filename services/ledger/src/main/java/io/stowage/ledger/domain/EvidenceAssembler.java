package io.stowage.ledger.domain;

import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.ReleaseEvidence;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Turns stored assets, objects and upload failures into the {@link ReleaseEvidence} the gate reads:
 * only assets that touch the scope, each with its own objects (by store, then key) and its upload
 * failure reasons (oldest first).
 */
public final class EvidenceAssembler {
    private EvidenceAssembler() {
    }

    /**
     * @param candidates assets that may touch the scope (a superset is fine: they are filtered here)
     * @param objects    objects of the candidates (others are ignored)
     * @param failures   upload failures of the candidates (others are ignored)
     */
    public static ReleaseEvidence assemble(EvidenceScope scope, List<AssetRecord> candidates,
                                           List<ObjectRecord> objects, List<UploadFailureRecord> failures) {
        return assemble(scope, candidates, objects, failures, List.of(), Map.of());
    }

    /**
     * @param deadLetters dead-letter rows of the candidates ({@link DeadLetterEvidence})
     * @param seqOf       ledger sequence of the objects' full-read event ids
     */
    public static ReleaseEvidence assemble(EvidenceScope scope, List<AssetRecord> candidates, List<ObjectRecord> objects,
                                           List<UploadFailureRecord> failures, List<DeadLetterEvidence.Row> deadLetters,
                                           Map<String, Long> seqOf) {
        List<AssetEvidence> assets = candidates.stream()
                .filter(a -> scope.touches(a.localRoot()))
                .sorted(Comparator.comparing(AssetRecord::assetId))
                .map(a -> evidenceOf(a, objects, failures, deadLetters, seqOf))
                .toList();
        return new ReleaseEvidence(scope.path(), assets);
    }

    /** @return one asset's evidence from the objects and failures that name it */
    public static AssetEvidence evidenceOf(AssetRecord asset, List<ObjectRecord> objects,
                                           List<UploadFailureRecord> failures) {
        return evidenceOf(asset, objects, failures, List.of(), Map.of());
    }

    /** @return one asset's evidence from the objects, failures and dead letters that name it */
    public static AssetEvidence evidenceOf(AssetRecord asset, List<ObjectRecord> objects, List<UploadFailureRecord> failures,
                                           List<DeadLetterEvidence.Row> deadLetters, Map<String, Long> seqOf) {
        List<ObjectEvidence> own = objects.stream()
                .filter(o -> asset.assetId().equals(o.assetId()))
                .sorted(Comparator.comparing(ObjectRecord::store).thenComparing(ObjectRecord::key))
                .map(ObjectRecord::toEvidence)
                .toList();
        List<String> reasons = failures.stream()
                .filter(f -> asset.assetId().equals(f.assetId()))
                .sorted(Comparator.comparing(UploadFailureRecord::eventTime))
                .map(UploadFailureRecord::reason)
                .toList();
        return asset.toEvidence(own, reasons, DeadLetterEvidence.outstanding(asset.assetId(), deadLetters, objects, seqOf));
    }
}
