package io.stowage.provideradapter.domain.cost;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * Turns sizes, lifetimes and hourly prices into US dollars with a {@link PriceTable}. Every result is a
 * {@link BigDecimal} rounded half-even to {@link #SCALE} decimal places (a millionth of a dollar); callers round
 * to cents only for display. A GB is 10^9 bytes; lifetimes count to the second.
 */
public final class CostCalculator {
    /** Decimal places of every result. */
    public static final int SCALE = 6;
    private static final BigDecimal BYTES_PER_GB = new BigDecimal("1000000000");
    private static final BigDecimal SECONDS_PER_HOUR = new BigDecimal("3600");
    private static final MathContext EXACT_ENOUGH = MathContext.DECIMAL128;

    private final PriceTable prices;

    public CostCalculator(PriceTable prices) {
        this.prices = prices;
    }

    /** @return the price table in use */
    public PriceTable prices() {
        return prices;
    }

    /**
     * @param sizeGb   provisioned size in GB (what the provider bills, used or not)
     * @param lifetime how long it existed (negative is treated as zero)
     * @return sizeGb x volume price x hours / hours per month
     */
    public BigDecimal volumeCost(long sizeGb, Duration lifetime) {
        BigDecimal hours = hours(lifetime);
        return round(BigDecimal.valueOf(sizeGb).multiply(prices.volumeUsdPerGbMonth()).multiply(hours)
                .divide(prices.hoursPerMonth(), EXACT_ENOUGH));
    }

    /** @return cost per hour (US dollars) x hours of {@code lifetime} */
    public BigDecimal podCost(BigDecimal costPerHourUsd, Duration lifetime) {
        return round(costPerHourUsd.multiply(hours(lifetime)));
    }

    /** @return what one month of a volume of {@code sizeGb} costs: sizeGb x volume price */
    public BigDecimal volumeMonthly(long sizeGb) {
        return round(BigDecimal.valueOf(sizeGb).multiply(prices.volumeUsdPerGbMonth()));
    }

    /** @return what one month of {@code bytes} on a network volume costs: bytes / 10^9 x volume price */
    public BigDecimal bytesOnVolumeMonthly(long bytes) {
        return round(gb(bytes).multiply(prices.volumeUsdPerGbMonth()));
    }

    /**
     * @return what one month of {@code bytes} in the object store costs when they are all the account stores:
     *         max(0, bytes / 10^9 - free GB-months) x store price
     */
    public BigDecimal storeMonthly(long bytes) {
        BigDecimal billable = gb(bytes).subtract(prices.storeFreeGbMonths()).max(BigDecimal.ZERO);
        return round(billable.multiply(prices.storeUsdPerGbMonth()));
    }

    /**
     * The monthly saving recorded on a release: the freed bytes no longer need volume space but are kept in the
     * store, so bytes / 10^9 x (volume price - store price). The free tier is not counted here: it is account-wide
     * and already used by what is archived (see {@link #storeMonthly}). Never negative.
     */
    public BigDecimal releaseSavingMonthly(long bytesFreed) {
        BigDecimal perGb = prices.volumeUsdPerGbMonth().subtract(prices.storeUsdPerGbMonth()).max(BigDecimal.ZERO);
        return round(gb(bytesFreed).multiply(perGb));
    }

    private static BigDecimal hours(Duration lifetime) {
        long seconds = Math.max(0, lifetime.getSeconds());
        return BigDecimal.valueOf(seconds).divide(SECONDS_PER_HOUR, EXACT_ENOUGH);
    }

    private static BigDecimal gb(long bytes) {
        return BigDecimal.valueOf(bytes).divide(BYTES_PER_GB, EXACT_ENOUGH);
    }

    private static BigDecimal round(BigDecimal value) {
        return value.setScale(SCALE, RoundingMode.HALF_EVEN);
    }
}
