package io.stowage.provideradapter.domain.cost;

import io.stowage.provideradapter.domain.resource.ManagedPod;
import io.stowage.provideradapter.domain.resource.ManagedVolume;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What volumes and pods cost up to an instant, what the live ones cost per month, and what the archive costs in the
 * object store against keeping the same bytes on a network volume. All amounts US dollars at
 * {@link CostCalculator#SCALE} decimals.
 *
 * @param at              the instant the figures are for
 * @param lines           one per volume and pod, oldest first (volumes, then pods)
 * @param totalCostUsd    sum of the lines' costs so far
 * @param liveMonthlyUsd  what the volumes and pods still alive cost per month (a pod: cost per hour x hours per month)
 * @param archive         the archive comparison
 */
public record CostReport(Instant at, List<Line> lines, BigDecimal totalCostUsd, BigDecimal liveMonthlyUsd,
                         Archive archive) {

    /**
     * @param kind            "volume" or "pod"
     * @param size            volume: "500 GB"; pod: "0.74 USD/h"
     * @param live            true while it exists or runs
     * @param lifetimeSeconds from creation to its end or to {@code at}
     * @param costUsd         what it cost over that lifetime
     * @param monthlyUsd      what it costs per month while live, 0 once ended
     */
    public record Line(String kind, String id, String name, String provider, String size, boolean live,
                       Instant createdAt, Instant endedAt, long lifetimeSeconds, BigDecimal costUsd,
                       BigDecimal monthlyUsd) {
    }

    /**
     * @param archivedBytes          bytes in the primary store (from the ledger)
     * @param storeMonthlyUsd        their monthly store cost, free tier applied
     * @param onVolumeMonthlyUsd     the same bytes on a network volume per month
     * @param monthlySavingUsd       the difference (never negative)
     */
    public record Archive(long archivedBytes, BigDecimal storeMonthlyUsd, BigDecimal onVolumeMonthlyUsd,
                          BigDecimal monthlySavingUsd) {
    }

    /** @return the report for {@code volumes} and {@code pods} at {@code at} with {@code archivedBytes} in the store */
    public static CostReport of(List<ManagedVolume> volumes, List<ManagedPod> pods, long archivedBytes, Instant at,
                                CostCalculator costs) {
        List<Line> lines = new ArrayList<>();
        BigDecimal total = BigDecimal.ZERO.setScale(CostCalculator.SCALE);
        BigDecimal monthly = BigDecimal.ZERO.setScale(CostCalculator.SCALE);
        for (ManagedVolume v : volumes) {
            boolean live = v.exists();
            Duration lifetime = lifetime(v.createdAt(), live ? at : v.destroyedAt(), at);
            BigDecimal month = live ? costs.volumeMonthly(v.sizeGb()) : BigDecimal.ZERO.setScale(CostCalculator.SCALE);
            Line line = new Line("volume", v.id(), v.name(), v.provider(), v.sizeGb() + " GB", live, v.createdAt(),
                    v.destroyedAt(), lifetime.getSeconds(), costs.volumeCost(v.sizeGb(), lifetime), month);
            lines.add(line);
            total = total.add(line.costUsd());
            monthly = monthly.add(month);
        }
        for (ManagedPod p : pods) {
            boolean live = p.running();
            Duration lifetime = lifetime(p.createdAt(), live ? at : p.terminatedAt(), at);
            BigDecimal month = live ? costs.podCost(p.costPerHourUsd(), Duration.ofSeconds(
                    costs.prices().hoursPerMonth().multiply(BigDecimal.valueOf(3600)).longValue()))
                    : BigDecimal.ZERO.setScale(CostCalculator.SCALE);
            Line line = new Line("pod", p.id(), p.name(), p.provider(), p.costPerHourUsd().toPlainString() + " USD/h",
                    live, p.createdAt(), p.terminatedAt(), lifetime.getSeconds(),
                    costs.podCost(p.costPerHourUsd(), lifetime), month);
            lines.add(line);
            total = total.add(line.costUsd());
            monthly = monthly.add(month);
        }
        BigDecimal store = costs.storeMonthly(archivedBytes);
        BigDecimal onVolume = costs.bytesOnVolumeMonthly(archivedBytes);
        Archive archive = new Archive(archivedBytes, store, onVolume, onVolume.subtract(store).max(
                BigDecimal.ZERO.setScale(CostCalculator.SCALE)));
        return new CostReport(at, List.copyOf(lines), total, monthly, archive);
    }

    // a resource is billed from its creation to its end, and never beyond the report's instant
    private static Duration lifetime(Instant from, Instant end, Instant at) {
        Instant until = end == null || end.isAfter(at) ? at : end;
        Duration d = Duration.between(from, until);
        return d.isNegative() ? Duration.ZERO : d;
    }
}
