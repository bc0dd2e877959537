package io.stowage.events;

import java.util.regex.Pattern;

/** Field checks shared by the event records and by anything that builds object keys. */
public final class Validation {
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._-]+");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    private Validation() {
    }

    /** @throws InvalidEventException with {@code message} when {@code condition} is false */
    public static void require(boolean condition, String message) {
        if (!condition) {
            throw new InvalidEventException(message);
        }
    }

    /** @throws InvalidEventException when {@code value} is null or blank */
    public static void requireText(String field, String value) {
        require(value != null && !value.isBlank(), field + " is missing");
    }

    /** @throws InvalidEventException when {@code value} is not 64 lower-case hex digits */
    public static void requireSha256(String field, String value) {
        require(value != null && SHA256.matcher(value).matches(), field + " is not a SHA-256 (64 lower-case hex digits): " + value);
    }

    /** @return true when {@code value} is a valid key name segment: ASCII letters, digits, '.', '_', '-' (and not "." or "..") */
    public static boolean isSegment(String value) {
        return value != null && SEGMENT.matcher(value).matches() && !value.equals(".") && !value.equals("..");
    }

    /**
     * @throws InvalidEventException when {@code value} is not a valid key segment; the message
     *                               names the field and the value, for a one-line CLI error
     */
    public static void requireSegment(String field, String value) {
        require(isSegment(value), field + " '" + value
                + "' is not a valid name: use only ASCII letters, digits, '.', '_' and '-'");
    }

    /** @throws InvalidEventException when {@code value} is negative */
    public static void requireNonNegative(String field, long value) {
        require(value >= 0, field + " is negative: " + value);
    }
}
