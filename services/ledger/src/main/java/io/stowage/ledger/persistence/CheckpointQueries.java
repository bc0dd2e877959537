package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.stowage.events.AssetIds;
import io.stowage.events.ledger.CheckpointStepEvidence;
import io.stowage.events.ledger.RunCheckpoints;
import io.stowage.ledger.domain.AssetRecord;
import io.stowage.ledger.domain.CheckpointStepRecord;
import io.stowage.ledger.domain.EvidenceAssembler;
import io.stowage.ledger.domain.ObjectRecord;
import io.stowage.ledger.domain.UploadFailureRecord;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Reads every checkpoint step of one run for retention: the step assets ({@code checkpoint/<E>/<R>/…}, so a step
 * published before retention rows existed is listed too), their objects and upload failures, the retention rows, and
 * the model revisions promoted from each step ({@code ledger_model_promotion}).
 */
@ApplicationScoped
public class CheckpointQueries {

    /** @return the run's steps ascending by step; an empty list when the ledger knows none */
    public Uni<RunCheckpoints> run(String experiment, String run) {
        String prefix = AssetIds.checkpoint(experiment, run, 0).replaceAll("[0-9]+$", "");
        return Panache.withSession(() -> LedgerAsset.<LedgerAsset>list("kind = 'checkpoint' and substring(assetId, 1, ?2) = ?1",
                        prefix, prefix.length())
                .chain(rows -> {
                    List<AssetRecord> assets = rows.stream().map(LedgerAsset::toRecord).toList();
                    List<String> ids = assets.stream().map(AssetRecord::assetId).toList();
                    if (ids.isEmpty()) {
                        return Uni.createFrom().item(new RunCheckpoints(experiment, run, List.of()));
                    }
                    return LedgerObject.<LedgerObject>list("assetId in ?1", ids)
                            .chain(objects -> LedgerUploadFailure.<LedgerUploadFailure>list("assetId in ?1", ids)
                                    .chain(failures -> LedgerCheckpointStep.<LedgerCheckpointStep>list("assetId in ?1", ids)
                                            .chain(steps -> LedgerModelPromotion.<LedgerModelPromotion>list("checkpointAssetId in ?1", ids)
                                                    .map(promotions -> assemble(experiment, run, assets,
                                                            objects.stream().map(LedgerObject::toRecord).toList(),
                                                            failures.stream().map(LedgerUploadFailure::toRecord).toList(),
                                                            steps.stream().map(LedgerCheckpointStep::toRecord)
                                                                    .collect(Collectors.toMap(CheckpointStepRecord::assetId, Function.identity())),
                                                            promotedTo(promotions))))));
                }));
    }

    /**
     * @return for every run whose newest published step (latest publish time, then highest step) carried the capsule's
     *         retention policy, that step and policy; by experiment then run. A run whose newest publish stated no
     *         policy is absent.
     */
    public Uni<List<io.stowage.events.ledger.RunRetentionPolicy>> policies() {
        return Panache.withSession(() -> LedgerCheckpointStep.<LedgerCheckpointStep>list(
                        "from LedgerCheckpointStep s where s.publishedAt = (select max(t.publishedAt) from LedgerCheckpointStep t"
                                + " where t.experiment = s.experiment and t.run = s.run)")
                .map(CheckpointQueries::newestPolicies));
    }

    static List<io.stowage.events.ledger.RunRetentionPolicy> newestPolicies(List<LedgerCheckpointStep> rows) {
        Map<String, CheckpointStepRecord> newest = new java.util.TreeMap<>();
        for (LedgerCheckpointStep row : rows) {
            CheckpointStepRecord r = row.toRecord();
            newest.merge(r.experiment() + "/" + r.run(), r, (a, b) -> a.step() >= b.step() ? a : b);
        }
        return newest.values().stream().filter(r -> r.retention() != null)
                .map(r -> new io.stowage.events.ledger.RunRetentionPolicy(r.experiment(), r.run(), r.step(),
                        r.publishedAt(), r.retention()))
                .toList();
    }

    private static RunCheckpoints assemble(String experiment, String run, List<AssetRecord> assets,
                                           List<ObjectRecord> objects, List<UploadFailureRecord> failures,
                                           Map<String, CheckpointStepRecord> steps, Map<String, List<String>> promotedTo) {
        List<CheckpointStepEvidence> out = assets.stream().map(a -> {
            long number = Long.parseLong(a.assetId().substring(a.assetId().lastIndexOf('/') + 1));
            CheckpointStepRecord s = steps.getOrDefault(a.assetId(), CheckpointStepRecord.empty(a.assetId(), experiment, run, number));
            return new CheckpointStepEvidence(number, EvidenceAssembler.evidenceOf(a, objects, failures), s.fileCount(),
                    s.totalBytes(), s.metrics(), s.tags(), s.publishedAt(), s.pinned(), s.expiredEventId(), s.expiredAt(),
                    s.expiredBytes(), promotedTo.getOrDefault(a.assetId(), List.of()), s.leaseUntil());
        }).sorted(Comparator.comparingLong(CheckpointStepEvidence::step)).toList();
        return new RunCheckpoints(experiment, run, out);
    }

    // step asset id -> the model revisions promoted from it, ascending
    private static Map<String, List<String>> promotedTo(List<LedgerModelPromotion> promotions) {
        return promotions.stream().collect(Collectors.groupingBy(p -> p.checkpointAssetId, java.util.TreeMap::new,
                Collectors.collectingAndThen(Collectors.mapping(p -> p.modelAssetId, Collectors.toList()),
                        l -> l.stream().sorted().toList())));
    }
}
