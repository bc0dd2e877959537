package io.stowage.ledger.domain;

import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.ReleaseEvidence;

import java.util.Comparator;
import java.util.List;

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
        List<AssetEvidence> assets = candidates.stream()
                .filter(a -> scope.touches(a.localRoot()))
                .sorted(Comparator.comparing(AssetRecord::assetId))
                .map(a -> evidenceOf(a, objects, failures))
                .toList();
        return new ReleaseEvidence(scope.path(), assets);
    }

    /** @return one asset's evidence from the objects and failures that name it */
    public static AssetEvidence evidenceOf(AssetRecord asset, List<ObjectRecord> objects,
                                           List<UploadFailureRecord> failures) {
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
        return asset.toEvidence(own, reasons);
    }
}
