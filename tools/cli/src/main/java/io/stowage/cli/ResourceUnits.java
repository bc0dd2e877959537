package io.stowage.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses the sizes ("500GB", "1TB", "500") and durations ("72h", "30m", "3d", "90s", "PT72H") of the volume and pod commands. */
public final class ResourceUnits {
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(GB|G|TB|T)?", Pattern.CASE_INSENSITIVE);
    private static final Pattern SPAN = Pattern.compile("(\\d+)\\s*(s|m|h|d)", Pattern.CASE_INSENSITIVE);

    private ResourceUnits() {
    }

    /**
     * @return GB (10^9 bytes): "500GB" or "500" = 500, "1TB" = 1000
     * @throws CliException (exit 2) for anything else or a size above Integer.MAX_VALUE
     */
    public static int gigabytes(String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            throw new CliException(CliException.USAGE, "size must look like 500GB or 1TB: " + text);
        }
        long gb = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "GB" : m.group(2).toUpperCase(Locale.ROOT);
        gb = unit.startsWith("T") ? gb * 1000 : gb;
        if (gb > Integer.MAX_VALUE) {
            throw new CliException(CliException.USAGE, "size too large: " + text);
        }
        return (int) gb;
    }

    /** @return the duration: "72h", "30m", "3d", "90s", "0" (none) or ISO-8601 ("PT72H"); @throws CliException (exit 2) otherwise */
    public static Duration duration(String text) {
        String t = text.trim();
        if (t.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = SPAN.matcher(t);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        try {
            return Duration.parse(t);
        } catch (RuntimeException e) {
            throw new CliException(CliException.USAGE, "duration must look like 72h, 30m, 3d or PT72H: " + text);
        }
    }
}
