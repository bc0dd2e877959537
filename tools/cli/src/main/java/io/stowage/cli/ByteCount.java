package io.stowage.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte counts as a user types them ({@code 500000}, {@code 64M}, {@code 10GiB}, {@code 2T}) and as the CLI prints them. */
public final class ByteCount {
    private static final Pattern FORM = Pattern.compile("([0-9]{1,19})\\s*([KMGT]?)(i?B)?", Pattern.CASE_INSENSITIVE);

    private ByteCount() {
    }

    /**
     * @param text digits with an optional binary unit K, M, G or T (KiB = 1024 bytes; "B", "iB" suffixes allowed)
     * @return the number of bytes, at least 1
     * @throws CliException exit 2 for anything else, zero, or more than {@code Long.MAX_VALUE}
     */
    public static long parse(String option, String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw new CliException(CliException.USAGE, option + " must be a byte count such as 500000, 64M or 10G, not '"
                    + text + "'");
        }
        int shift = switch (m.group(2).toUpperCase(Locale.ROOT)) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            case "T" -> 40;
            default -> 0;
        };
        try {
            long value = Long.parseLong(m.group(1));
            if (value <= 0 || value > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException();
            }
            return value << shift;
        } catch (NumberFormatException e) {
            throw new CliException(CliException.USAGE, option + " must be between 1 byte and 8 EiB, not '" + text + "'");
        }
    }

    /** @return e.g. {@code 812 B}, {@code 3.4 MiB}, {@code 1.25 GiB} */
    public static String human(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, value < 10 ? "%.2f %s" : "%.1f %s", value, units[unit]);
    }
}
