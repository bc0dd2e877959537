package io.stowage.provideradapter.domain.cost;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * The prices the cost figures are computed from, all in US dollars; defaults from the storage policy
 * ({@code reference/storage-policy.zh.txt}): RunPod network volume $0.07 per GB-month, R2 Standard $0.015 per
 * GB-month with the first 10 GB-month free and free egress; a month is 730 hours (RunPod bills volumes by the hour:
 * the policy's "500 GB for three days, about $3.45" is 500 x 0.07 x 72 / 730). A GB is 10^9 bytes.
 *
 * @param volumeUsdPerGbMonth network volume price per provisioned GB and month
 * @param storeUsdPerGbMonth  object store price per stored GB and month
 * @param storeFreeGbMonths   GB-months of the object store that are free each month (account-wide)
 * @param hoursPerMonth       hours in a billing month
 */
public record PriceTable(BigDecimal volumeUsdPerGbMonth, BigDecimal storeUsdPerGbMonth, BigDecimal storeFreeGbMonths,
                         BigDecimal hoursPerMonth) {

    public PriceTable {
        Objects.requireNonNull(volumeUsdPerGbMonth, "volumeUsdPerGbMonth");
        Objects.requireNonNull(storeUsdPerGbMonth, "storeUsdPerGbMonth");
        Objects.requireNonNull(storeFreeGbMonths, "storeFreeGbMonths");
        Objects.requireNonNull(hoursPerMonth, "hoursPerMonth");
        if (volumeUsdPerGbMonth.signum() < 0 || storeUsdPerGbMonth.signum() < 0 || storeFreeGbMonths.signum() < 0
                || hoursPerMonth.signum() <= 0) {
            throw new IllegalArgumentException("prices must not be negative and hoursPerMonth must be positive");
        }
    }

    /** @return the storage policy's prices: 0.07, 0.015, 10 free GB-months, 730 hours */
    public static PriceTable defaults() {
        return new PriceTable(new BigDecimal("0.07"), new BigDecimal("0.015"), BigDecimal.TEN, new BigDecimal("730"));
    }
}
