package io.stowage.cli.output;

import io.stowage.cli.ByteCount;
import io.stowage.cli.CliException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The progress line of {@code dataset fetch} and the byte counts of {@link ByteCount}: exact text. */
class FetchProgressBarTest {
    private final FetchProgressBar bar = new FetchProgressBar(new PrintStream(new ByteArrayOutputStream()), 2L << 30, 8,
            true, false);

    @Test
    void showsBytesRateAndEta() {
        // 1 GiB of 2 GiB done, 512 MiB of it received in 4 s: 128 MiB/s, 1 GiB left → 8 s
        assertThat(bar.render(1L << 30, 512L << 20, 4.0))
                .isEqualTo("[###############...............] 1.00 GiB / 2.00 GiB  128.0 MiB/s  ETA 0:08  shards 0/8");
    }

    @Test
    void beforeAnyByteTheEtaIsUnknown() {
        assertThat(bar.render(0, 0, 0.0))
                .isEqualTo("[..............................] 0 B / 2.00 GiB  0 B/s  ETA --:--  shards 0/8");
    }

    @Test
    void byteCountsParseWithBinaryUnitsAndRefuseTheRest() {
        assertThat(ByteCount.parse("--cache-limit", "500000")).isEqualTo(500_000L);
        assertThat(ByteCount.parse("--cache-limit", "64M")).isEqualTo(64L << 20);
        assertThat(ByteCount.parse("--cache-limit", "10GiB")).isEqualTo(10L << 30);
        assertThat(ByteCount.parse("--cache-limit", "2t")).isEqualTo(2L << 40);
        for (String bad : new String[]{"0", "-5", "1.5G", "lots", "9999999999T"}) {
            assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(CliException.class,
                    () -> ByteCount.parse("--cache-limit", bad)).exitCode()).as(bad).isEqualTo(CliException.USAGE);
        }
        assertThat(ByteCount.human(812)).isEqualTo("812 B");
        assertThat(ByteCount.human(3_565_158)).isEqualTo("3.40 MiB");
    }
}
