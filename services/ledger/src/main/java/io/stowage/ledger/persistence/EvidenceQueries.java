package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ReleaseEvidence;
import io.stowage.ledger.domain.AssetRecord;
import io.stowage.ledger.domain.DeadLetterEvidence;
import io.stowage.ledger.domain.EvidenceAssembler;
import io.stowage.ledger.domain.EvidenceScope;
import io.stowage.ledger.domain.ObjectRecord;
import io.stowage.ledger.domain.UploadFailureRecord;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Reads the evidence of assets from the projection tables: by directory (for the gate) or by asset id. */
@ApplicationScoped
public class EvidenceQueries {

    /** @return the evidence of every asset whose local root equals, lies under, or contains the scope's path */
    public Uni<ReleaseEvidence> forPath(EvidenceScope scope) {
        List<String> exact = new ArrayList<>(scope.ancestors());
        exact.add(scope.path());
        String under = likeEscape(scope.descendantPrefix()) + "%";
        return Panache.withSession(() -> LedgerAsset.<LedgerAsset>list(
                        "localRoot in ?1 or localRoot like ?2 escape '!'", exact, under)
                .chain(rows -> {
                    List<AssetRecord> assets = rows.stream().map(LedgerAsset::toRecord)
                            .filter(a -> scope.touches(a.localRoot())).toList();
                    return withDetails(assets).map(d -> EvidenceAssembler.assemble(scope, assets, d.objects, d.failures,
                            d.deadLetters, d.seqOf));
                }));
    }

    /** @return the evidence of one asset, or null when the ledger does not know it */
    public Uni<AssetEvidence> forAsset(String assetId) {
        return Panache.withSession(() -> LedgerAsset.<LedgerAsset>findById(assetId).chain(row -> {
            if (row == null) {
                return Uni.createFrom().nullItem();
            }
            AssetRecord asset = row.toRecord();
            return withDetails(List.of(asset)).map(d -> EvidenceAssembler.evidenceOf(asset, d.objects, d.failures,
                    d.deadLetters, d.seqOf));
        }));
    }

    private Uni<Details> withDetails(List<AssetRecord> assets) {
        if (assets.isEmpty()) {
            return Uni.createFrom().item(new Details(List.of(), List.of(), List.of(), Map.of()));
        }
        List<String> ids = assets.stream().map(AssetRecord::assetId).toList();
        return LedgerObject.<LedgerObject>list("assetId in ?1", ids)
                .chain(objects -> LedgerUploadFailure.<LedgerUploadFailure>list("assetId in ?1", ids)
                        .chain(failures -> deadLettersOf(ids, objects).map(dead -> new Details(
                                objects.stream().map(LedgerObject::toRecord).toList(),
                                failures.stream().map(LedgerUploadFailure::toRecord).toList(),
                                dead.rows(), dead.seqOf()))));
    }

    /** The dead letters of the assets on evidence topics and, only when there are some, the objects' full-read seqs. */
    private static Uni<DeadLetters> deadLettersOf(List<String> assetIds, List<LedgerObject> objects) {
        return LedgerEvent.<LedgerEvent>list("deadLetter = true and assetId in ?1 and topic in ?2", assetIds,
                        List.copyOf(DeadLetterEvidence.TOPICS))
                .chain(rows -> {
                    if (rows.isEmpty()) {
                        return Uni.createFrom().item(new DeadLetters(List.of(), Map.of()));
                    }
                    List<String> originals = rows.stream().map(e -> DeadLetterEvidence.originalId(e.eventId))
                            .filter(Objects::nonNull).distinct().toList();
                    List<String> reads = objects.stream().map(LedgerObject::toRecord).map(ObjectRecord::fullReadEventId)
                            .filter(Objects::nonNull).distinct().toList();
                    List<String> lookup = new ArrayList<>(originals);
                    lookup.addAll(reads);
                    return LedgerEvent.<LedgerEvent>list("eventId in ?1", lookup).map(events -> {
                        Map<String, Long> seqOf = new HashMap<>();
                        events.forEach(e -> seqOf.put(e.eventId, e.seq));
                        List<DeadLetterEvidence.Row> dead = rows.stream().map(e -> new DeadLetterEvidence.Row(e.eventId,
                                e.assetId, e.topic, e.reason, e.seq, seqOf.containsKey(DeadLetterEvidence.originalId(e.eventId))))
                                .toList();
                        return new DeadLetters(dead, seqOf);
                    });
                });
    }

    // '!' escapes LIKE's wildcards: paths often hold '_'
    private static String likeEscape(String text) {
        return text.replace("!", "!!").replace("%", "!%").replace("_", "!_");
    }

    private record Details(List<ObjectRecord> objects, List<UploadFailureRecord> failures,
                           List<DeadLetterEvidence.Row> deadLetters, Map<String, Long> seqOf) {
    }

    private record DeadLetters(List<DeadLetterEvidence.Row> rows, Map<String, Long> seqOf) {
    }
}
