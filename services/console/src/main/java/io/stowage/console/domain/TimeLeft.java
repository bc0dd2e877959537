package io.stowage.console.domain;

import java.time.Duration;
import java.time.Instant;

/** A time to live as a person reads it: {@code 59m 12s left}, {@code expired 2h 3m ago}, {@code none}. Pure logic. */
public final class TimeLeft {
    private TimeLeft() {
    }

    /**
     * @param expiresAt the end of the time to live, null for none
     * @param at        the instant it is measured at (the cost report's {@code at}: the provider-adapter's clock)
     * @return {@code none}, {@code N left} or {@code expired N ago}, N in days, hours, minutes and seconds, at most two units
     */
    public static String of(Instant expiresAt, Instant at) {
        if (expiresAt == null) {
            return "none";
        }
        Duration left = Duration.between(at, expiresAt);
        return left.isNegative() || left.isZero() ? "expired " + words(left.negated()) + " ago" : words(left) + " left";
    }

    /** @param d a non-negative duration; @return its largest non-zero unit and the next one (left out when 0), e.g. {@code 3d 4h}, {@code 2h}, {@code 0s} */
    static String words(Duration d) {
        long[] values = {d.toDays(), d.toHoursPart(), d.toMinutesPart(), d.toSecondsPart()};
        String[] units = {"d", "h", "m", "s"};
        StringBuilder out = new StringBuilder();
        int shown = 0;
        for (int i = 0; i < values.length && shown < 2; i++) {
            if (values[i] > 0 || shown > 0) {
                if (values[i] > 0) {
                    out.append(out.isEmpty() ? "" : " ").append(values[i]).append(units[i]);
                }
                shown++;
            }
        }
        return out.isEmpty() ? "0s" : out.toString();
    }
}
