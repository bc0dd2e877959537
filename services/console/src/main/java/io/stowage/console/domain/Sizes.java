package io.stowage.console.domain;

import java.util.Locale;

/** Byte counts as a person reads them: {@code 1.5 MiB}, {@code 512 B}. Pure logic. */
public final class Sizes {
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

    private Sizes() {
    }

    /** @param bytes a non-negative byte count; @return it in binary units with one decimal, e.g. {@code 2.0 GiB} */
    public static String human(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, UNITS[unit]);
    }
}
