package io.stowage.auth;

import io.stowage.events.Sha256;

import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One configured token: {@code <role>:<name>:<sha256-hex>}, e.g. {@code operator:alice:9f86d0…}. The name says who
 * holds it (recorded in events and logs); the 64 lower-case hex digits are the SHA-256 of the token's UTF-8 bytes.
 * The token itself is never configured, stored or logged.
 *
 * @param role   {@link Roles#READER} or {@link Roles#OPERATOR}
 * @param name   1–64 ASCII letters, digits, {@code .}, {@code _}, {@code -}
 * @param sha256 32 bytes
 */
public record TokenEntry(String role, String name, byte[] sha256) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /**
     * @param line {@code <role>:<name>:<sha256-hex>}; surrounding blanks ignored, hex case-insensitive
     * @return the entry
     * @throws IllegalArgumentException naming what is wrong (never echoing the hash, in case a token was pasted there)
     */
    public static TokenEntry parse(String line) {
        String[] parts = line.strip().split(":", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("a token line is <role>:<name>:<sha256-hex>, got " + parts.length + " field(s)");
        }
        Roles.grantedBy(parts[0]);
        if (!NAME.matcher(parts[1]).matches()) {
            throw new IllegalArgumentException("token name '" + parts[1] + "' is not 1-64 of A-Z a-z 0-9 . _ -");
        }
        String hex = parts[2].toLowerCase(Locale.ROOT);
        if (!Sha256.isHex(hex)) {
            throw new IllegalArgumentException("token " + parts[1] + ": the third field must be 64 hex digits (the SHA-256"
                    + " of the token), not the token itself");
        }
        return new TokenEntry(parts[0], parts[1], HexFormat.of().parseHex(hex));
    }

    /** @return the line this entry is configured as: {@code <role>:<name>:<sha256-hex>} */
    public String line() {
        return role + ":" + name + ":" + HexFormat.of().formatHex(sha256);
    }
}
