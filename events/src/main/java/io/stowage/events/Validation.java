package io.stowage.events;

import java.util.regex.Pattern;

/** Field checks shared by the event records and by anything that builds object keys. */
public final class Validation {
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._-]+");
    /**
     * Longest name segment, in characters (= bytes: segments are ASCII). Not 255: S3Proxy's filesystem store
     * answers HTTP 500 to a PUT whose last key segment is 255 characters (it writes the object under a longer
     * temporary file name first); 200 leaves room for such suffixes on file-system-backed stores.
     */
    public static final int MAX_SEGMENT_CHARS = 200;

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
        require(Sha256.isHex(value), field + " is not a SHA-256 (64 lower-case hex digits): " + value);
    }

    /**
     * @return true when {@code value} is a valid key name segment ({@link #segmentProblem(String)} finds nothing)
     */
    public static boolean isSegment(String value) {
        return segmentProblem(value) == null;
    }

    /**
     * The rule for every user-supplied name that ends up in an object key or an asset id (dataset name,
     * revision, experiment, run, model, milestone, each '/'-separated segment of a checkpoint file's path,
     * and a checkpoint's tags): 1 to {@value #MAX_SEGMENT_CHARS} characters, each an ASCII letter, digit,
     * '.', '_' or '-', and not "." or "..". So no space, '+', '%', '/', backslash, non-ASCII letter (no NFC/NFD
     * ambiguity), control character or anything a URL, a shell or an S3-compatible store would re-encode:
     * such a key reads back byte for byte through every S3 client and listing.
     *
     * @return null when {@code value} is valid, else a short description of the first problem, e.g.
     *         {@code "'+' (U+002B) is not allowed"}
     */
    public static String segmentProblem(String value) {
        if (value == null || value.isEmpty()) {
            return "it is empty";
        }
        if (value.equals(".") || value.equals("..")) {
            return "'.' and '..' are not names";
        }
        if (value.length() > MAX_SEGMENT_CHARS) {
            return "it is " + value.length() + " characters long, longer than " + MAX_SEGMENT_CHARS;
        }
        if (!SEGMENT.matcher(value).matches()) {
            int bad = value.codePoints().filter(c -> !(c < 128 && SEGMENT.matcher(Character.toString(c)).matches()))
                    .findFirst().orElseThrow();
            String shown = bad < 32 || bad == 127 ? "a control character" : "'" + Character.toString(bad) + "'";
            return shown + String.format(" (U+%04X) is not allowed", bad);
        }
        return null;
    }

    /**
     * @throws InvalidEventException when {@code value} is not a valid key segment ({@link #segmentProblem(String)});
     *                               the one-line message names the field, the value and the problem
     */
    public static void requireSegment(String field, String value) {
        String problem = segmentProblem(value);
        require(problem == null, field + " '" + oneLine(value) + "' is not a valid name: use only ASCII letters,"
                + " digits, '.', '_' and '-' (" + problem + ")");
    }

    private static String oneLine(String value) {
        return value == null ? "" : value.replaceAll("\\p{Cntrl}", "?");
    }

    /** @throws InvalidEventException when {@code value} is negative */
    public static void requireNonNegative(String field, long value) {
        require(value >= 0, field + " is negative: " + value);
    }
}
