package io.stowage.shardformat;

import java.util.Optional;

/**
 * The one rule for a shard member's name, shared by everything that writes, reads, verifies or unpacks a shard: a
 * relative path of '/'-separated segments, each a legal file name that means only itself. Refused: an empty name, an
 * absolute name (leading '/'), an empty segment ({@code a//b}, a trailing '/'), a {@code .} or {@code ..} segment
 * ({@code ./a}, {@code a/../b}, {@code ..././z}), a backslash, a NUL, and U+FFFD, the replacement character: a file
 * name whose bytes are not valid UTF-8 (or not valid in the JVM's file-name encoding) reads as it, so the name recorded
 * would not open the file again nor restore the same name. Names such as {@code ...} or {@code .hidden}
 * are legal. A name that passes cannot leave the directory it is unpacked into, and it is already in the one form a
 * path normaliser would give it, so two legal names that differ are different files.
 */
public final class MemberName {
    /** U+FFFD, what a byte the file-name encoding cannot decode becomes in a Java string. */
    public static final char REPLACEMENT = '\uFFFD';

    private MemberName() {
    }

    /**
     * @param name a member name as the tar or the member manifest gives it (may be null)
     * @return why the name is refused, in a few words (for example {@code "has a .. segment"}), or empty when legal
     */
    public static Optional<String> problem(String name) {
        if (name == null || name.isEmpty()) {
            return Optional.of("is empty");
        }
        if (name.indexOf('\0') >= 0) {
            return Optional.of("holds a NUL");
        }
        if (name.indexOf('\\') >= 0) {
            return Optional.of("holds a backslash");
        }
        if (name.indexOf(REPLACEMENT) >= 0) {
            return Optional.of("holds U+FFFD, as a name that is not valid UTF-8 reads (rename the file)");
        }
        if (name.startsWith("/")) {
            return Optional.of("is absolute");
        }
        for (String segment : name.split("/", -1)) {
            if (segment.isEmpty()) {
                return Optional.of("has an empty segment");
            }
            if (segment.equals(".") || segment.equals("..")) {
                return Optional.of("has a " + segment + " segment");
            }
        }
        return Optional.empty();
    }

    /**
     * @param name a member name
     * @return true when {@link #problem} finds nothing
     */
    public static boolean isLegal(String name) {
        return problem(name).isEmpty();
    }
}
