package io.stowage.provideradapter.domain.cost;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Every expected figure is worked out by hand in the comment above it, from the storage policy's prices. */
class CostCalculatorTest {
    private final CostCalculator costs = new CostCalculator(PriceTable.defaults());

    @Test
    void aFiveHundredGbScratchVolumeForThreeDaysCostsWhatThePolicySays() {
        // 500 GB x $0.07 per GB-month x 72 h / 730 h = 2520 / 730 = 3.452054794... -> 3.452055 ("about $3.45")
        assertThat(costs.volumeCost(500, Duration.ofHours(72))).isEqualByComparingTo("3.452055");
    }

    @Test
    void aVolumeForAWholeMonthCostsItsMonthlyPrice() {
        // 100 GB x 0.07 x 730 h / 730 h = 7.00 (the policy's hot volume, "$7/month")
        assertThat(costs.volumeCost(100, Duration.ofHours(730))).isEqualByComparingTo("7.000000");
        assertThat(costs.volumeMonthly(100)).isEqualByComparingTo("7.000000");
        // 500 GB x 0.07 = 35.00 ("about $35/month" kept for long)
        assertThat(costs.volumeMonthly(500)).isEqualByComparingTo("35.000000");
    }

    @Test
    void lifetimesCountToTheSecond() {
        // 1 GB x 0.07 x (90 s / 3600 s per h = 0.025 h) / 730 = 0.00175 / 730 = 0.0000023972... -> 0.000002
        assertThat(costs.volumeCost(1, Duration.ofSeconds(90))).isEqualByComparingTo("0.000002");
        // 500 GB x 0.07 x (3 h 30 min = 3.5 h) / 730 = 122.5 / 730 = 0.167808219... -> 0.167808
        assertThat(costs.volumeCost(500, Duration.ofMinutes(210))).isEqualByComparingTo("0.167808");
        assertThat(costs.volumeCost(500, Duration.ofSeconds(-5))).isEqualByComparingTo("0");
    }

    @Test
    void theObjectStoreChargesAboveTheFreeTenGbMonths() {
        // 500 GB: (500 - 10) x 0.015 = 7.35 (the policy's "500 GB about $7.35/month")
        assertThat(costs.storeMonthly(500_000_000_000L)).isEqualByComparingTo("7.350000");
        // 1 TB = 1000 GB: (1000 - 10) x 0.015 = 14.85 (the policy's "1 TB about $14.85/month")
        assertThat(costs.storeMonthly(1_000_000_000_000L)).isEqualByComparingTo("14.850000");
        // 4 GB: below the free 10 GB-months -> 0
        assertThat(costs.storeMonthly(4_000_000_000L)).isEqualByComparingTo("0");
    }

    @Test
    void keepingBytesOnAVolumeCostsTheVolumePricePerGb() {
        // 250 GB x 0.07 = 17.50
        assertThat(costs.bytesOnVolumeMonthly(250_000_000_000L)).isEqualByComparingTo("17.500000");
        // 1.5 GB x 0.07 = 0.105
        assertThat(costs.bytesOnVolumeMonthly(1_500_000_000L)).isEqualByComparingTo("0.105000");
    }

    @Test
    void aReleaseSavesTheVolumePriceLessTheStorePriceOfTheFreedBytes() {
        // 200 GB x (0.07 - 0.015 = 0.055) = 11.00 per month
        assertThat(costs.releaseSavingMonthly(200_000_000_000L)).isEqualByComparingTo("11.000000");
        // 123,456,789 bytes = 0.123456789 GB x 0.055 = 0.006790123395 -> 0.006790
        assertThat(costs.releaseSavingMonthly(123_456_789L)).isEqualByComparingTo("0.006790");
    }

    @Test
    void aPodCostsItsHourlyPriceTimesItsHours() {
        // $0.74 per h (RunPod's documented example costPerHr) x 2.5 h = 1.85
        assertThat(costs.podCost(new BigDecimal("0.74"), Duration.ofMinutes(150))).isEqualByComparingTo("1.850000");
        // $0.44 per h x 45 s = 0.44 x 0.0125 h = 0.0055
        assertThat(costs.podCost(new BigDecimal("0.44"), Duration.ofSeconds(45))).isEqualByComparingTo("0.005500");
    }

    @Test
    void anotherPriceTableChangesEveryFigure() {
        CostCalculator dearer = new CostCalculator(new PriceTable(new BigDecimal("0.10"), new BigDecimal("0.02"),
                BigDecimal.ZERO, new BigDecimal("720")));
        // 500 GB x 0.10 x 72 h / 720 h = 5.00
        assertThat(dearer.volumeCost(500, Duration.ofHours(72))).isEqualByComparingTo("5.000000");
        // 10 GB x 0.02 with no free tier = 0.20
        assertThat(dearer.storeMonthly(10_000_000_000L)).isEqualByComparingTo("0.200000");
    }
}
