package io.stowage.console.domain;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A presigned link's lifetime as typed on the links page: a whole number and a unit, {@code s}, {@code m}, {@code h} or
 * {@code d} (e.g. {@code 90m}, {@code 24h}, {@code 7d}). The verifier enforces the bounds (1 s to 7 days). The retention
 * form reads its short durations the same way ({@link RetentionForm}). Pure.
 */
public final class LinkLifetime {
    private static final Pattern FORM = Pattern.compile("(\\d{1,9})\\s*([smhd])");

    private LinkLifetime() {
    }

    /**
     * @param text the lifetime as typed; blank means 24 hours
     * @return the lifetime in seconds
     * @throws IllegalArgumentException for anything else, naming it
     */
    public static long seconds(String text) {
        if (text == null || text.isBlank()) {
            return 86_400L;
        }
        Matcher m = FORM.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("expires '" + text.strip()
                    + "' is not a lifetime: a whole number and s, m, h or d (e.g. 24h, 7d)");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "s" -> n;
            case "m" -> n * 60;
            case "h" -> n * 3_600;
            default -> n * 86_400;
        };
    }
}
