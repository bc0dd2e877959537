package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.stowage.events.VerifyResult;
import io.stowage.ledger.domain.RunAccounting;
import io.stowage.ledger.domain.RunAttemptRecord;
import io.stowage.ledger.domain.RunReport;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads what {@link RunAccounting} needs for one run: its attempts, its checkpoint steps (publication time, bytes,
 * expiry) with the newest HEAD of each of their primary-store objects, and the pods created with the attempts'
 * resources id; and lists every run the ledger has attempts of.
 */
@ApplicationScoped
public class RunQueries {

    /** @return the run's report; verdict "not started" when the ledger knows no attempt of it */
    public Uni<RunReport> report(String experiment, String run) {
        return Panache.withSession(() -> LedgerRunAttempt.<LedgerRunAttempt>list("experiment = ?1 and run = ?2", experiment, run)
                .chain(rows -> {
                    List<RunAttemptRecord> attempts = rows.stream().map(LedgerRunAttempt::toRecord).toList();
                    return steps(experiment, run).chain(steps -> podsPerHour(attempts)
                            .map(perHour -> RunAccounting.account(experiment, run, attempts, steps, perHour)));
                }));
    }

    /** @return one report per run with at least one attempt, ordered by experiment and run */
    public Uni<List<RunReport>> all() {
        return Panache.withSession(() -> LedgerRunAttempt.<LedgerRunAttempt>list("order by experiment, run").map(rows ->
                rows.stream().map(r -> List.of(r.experiment, r.run)).distinct().toList()))
                .chain(runs -> {
                    Uni<List<RunReport>> out = Uni.createFrom().item(new ArrayList<>());
                    for (List<String> er : runs) {
                        out = out.chain(list -> report(er.get(0), er.get(1)).map(r -> {
                            list.add(r);
                            return list;
                        }));
                    }
                    return out;
                });
    }

    private Uni<List<RunAccounting.Step>> steps(String experiment, String run) {
        return LedgerCheckpointStep.<LedgerCheckpointStep>list("experiment = ?1 and run = ?2", experiment, run).chain(rows -> {
            if (rows.isEmpty()) {
                return Uni.createFrom().item(List.<RunAccounting.Step>of());
            }
            List<String> ids = rows.stream().map(r -> r.assetId).toList();
            return LedgerObject.<LedgerObject>list("assetId in ?1 and store = 'primary'", ids).map(objects -> {
                Map<String, List<LedgerObject>> byAsset = objects.stream().collect(Collectors.groupingBy(o -> o.assetId));
                return rows.stream().sorted(Comparator.comparingLong(r -> r.step)).map(r -> new RunAccounting.Step(r.step,
                        r.publishedAt, verifiedAt(byAsset.getOrDefault(r.assetId, List.of()), r.fileCount),
                        r.expiredEventId != null ? 0 : r.totalBytes, r.expiredEventId != null)).toList();
            });
        });
    }

    /** @return the newest HEAD time of the step's objects when every one of its files has an OK HEAD, else null */
    static Instant verifiedAt(List<LedgerObject> objects, int files) {
        if (objects.isEmpty() || objects.size() < files
                || objects.stream().anyMatch(o -> o.headResult != VerifyResult.OK || o.headVerifiedAt == null)) {
            return null;
        }
        return objects.stream().map(o -> o.headVerifiedAt).max(Comparator.naturalOrder()).orElse(null);
    }

    private Uni<BigDecimal> podsPerHour(List<RunAttemptRecord> attempts) {
        Set<String> resources = attempts.stream().map(RunAttemptRecord::resources).filter(Objects::nonNull)
                .collect(Collectors.toSet());
        if (resources.isEmpty()) {
            return Uni.createFrom().nullItem();
        }
        return LedgerResource.<LedgerResource>list("kind = 'pod' and runId in ?1", resources).map(pods -> pods.isEmpty() ? null
                : pods.stream().map(p -> p.costPerHourUsd == null ? BigDecimal.ZERO : p.costPerHourUsd)
                .reduce(BigDecimal.ZERO, BigDecimal::add));
    }

}
