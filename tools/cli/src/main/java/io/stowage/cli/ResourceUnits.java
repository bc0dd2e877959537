package io.stowage.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses the sizes ("500GB", "1TB", "500") and durations ("72h", "30m", "3d", "90s", "PT72H") of the volume and pod commands. */
public final class ResourceUnits {
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(GB|G|TB|T)?", Pattern.CASE_INSENSITIVE);
    private static final Pattern SPAN = Pattern.compile("(\\d{1,12})\\s*(s|m|h|d)", Pattern.CASE_INSENSITIVE);

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

    /** The accepted forms of every duration option, as its error message names them. */
    public static final String DURATION_FORMS = "a whole number with s, m, h or d (e.g. 90m, 2h, 1d), 0 for none,"
            + " or ISO-8601 (e.g. PT2H, P7D)";

    /**
     * The one parser of the CLI's durations: every duration option goes through it ({@link DurationConverter}).
     *
     * @return the duration: "72h", "30m", "3d", "90s", "0" (none) or ISO-8601 ("PT72H"), never negative
     * @throws CliException (exit 2) otherwise, one line naming the accepted forms
     */
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
        Duration parsed;
        try {
            parsed = Duration.parse(t);
        } catch (RuntimeException e) {
            parsed = null;
        }
        if (parsed == null) {
            throw new CliException(CliException.USAGE, "'" + text + "' is not a duration: use " + DURATION_FORMS);
        }
        if (parsed.isNegative()) {
            throw new CliException(CliException.USAGE, "'" + text + "' is negative: use " + DURATION_FORMS);
        }
        return parsed;
    }
}
