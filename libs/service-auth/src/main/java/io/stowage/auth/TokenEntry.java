package io.stowage.auth;

import io.stowage.events.Sha256;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One configured token: {@code <role>:<name>:<sha256-hex>[:<expires-at>]}, e.g. {@code operator:alice:9f86d0…} or
 * {@code reader:ci-bot:5b1f…:2027-01-31T00:00:00Z}. The name says who holds it (recorded in events and logs); the 64
 * lower-case hex digits are the SHA-256 of the token's UTF-8 bytes; the optional fourth field is the ISO-8601 UTC
 * instant from which the token is refused ({@code expired-token}). The token itself is never configured, stored or
 * logged.
 *
 * @param role      {@link Roles#READER} or {@link Roles#OPERATOR}
 * @param name      1–64 ASCII letters, digits, {@code .}, {@code _}, {@code -}
 * @param sha256    32 bytes
 * @param expiresAt the first instant the token is refused, or null for a token without expiry
 */
public record TokenEntry(String role, String name, byte[] sha256, Instant expiresAt) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /** An entry without expiry. */
    public TokenEntry(String role, String name, byte[] sha256) {
        this(role, name, sha256, null);
    }

    /**
     * @param line {@code <role>:<name>:<sha256-hex>[:<expires-at ISO-8601 UTC instant>]}; surrounding blanks ignored,
     *             hex case-insensitive
     * @return the entry
     * @throws IllegalArgumentException naming which field is wrong, never echoing a field (a token may have been
     *                                  pasted into any of them)
     */
    public static TokenEntry parse(String line) {
        String[] parts = line.strip().split(":", 4);
        if (parts.length < 3) {
            throw new IllegalArgumentException("a token line is <role>:<name>:<sha256-hex>[:<expires-at>], got "
                    + parts.length + " field(s)");
        }
        if (!parts[0].equals(Roles.READER) && !parts[0].equals(Roles.OPERATOR)) {
            throw new IllegalArgumentException("the first field (role) must be reader or operator");
        }
        if (!NAME.matcher(parts[1]).matches()) {
            throw new IllegalArgumentException("the second field (name) must be 1-64 of A-Z a-z 0-9 . _ -");
        }
        String hex = parts[2].toLowerCase(Locale.ROOT);
        if (!Sha256.isHex(hex)) {
            throw new IllegalArgumentException("the third field must be 64 hex digits (the SHA-256"
                    + " of the token), not the token itself");
        }
        return new TokenEntry(parts[0], parts[1], HexFormat.of().parseHex(hex), parts.length == 4 ? expiry(parts) : null);
    }

    private static Instant expiry(String[] parts) {
        try {
            return Instant.parse(parts[3].strip());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("the fourth field (expires-at) must be an ISO-8601"
                    + " UTC instant such as 2027-01-31T00:00:00Z");
        }
    }

    /** @return true when the token has an expiry and {@code now} is at or after it */
    public boolean expiredAt(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    /** @return the line this entry is configured as: {@code <role>:<name>:<sha256-hex>[:<expires-at>]} */
    public String line() {
        return role + ":" + name + ":" + HexFormat.of().formatHex(sha256) + (expiresAt == null ? "" : ":" + expiresAt);
    }

    /** @return {@code role:name} and, with an expiry, {@code until <instant>}: what a log line may show */
    public String label() {
        return role + ":" + name + (expiresAt == null ? "" : " until " + expiresAt);
    }
}
