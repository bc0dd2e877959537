package io.stowage.auth;

import io.stowage.events.Sha256;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The configured tokens, by hash: answers which entry (if any) a presented bearer token is. Pure Java.
 * Hashing is plain SHA-256 without salt: tokens are 256 random bits ({@link #newToken()}), so a leaked hash
 * cannot be reversed by guessing, and a salt would protect nothing (see docs/security/tokens.md).
 */
public final class TokenTable {
    private final List<TokenEntry> entries;

    /** @param entries the configured tokens; two entries with the same hash are refused */
    public TokenTable(List<TokenEntry> entries) {
        for (int i = 0; i < entries.size(); i++) {
            for (int j = i + 1; j < entries.size(); j++) {
                if (MessageDigest.isEqual(entries.get(i).sha256(), entries.get(j).sha256())) {
                    throw new IllegalArgumentException("tokens " + entries.get(i).name() + " and " + entries.get(j).name()
                            + " have the same hash");
                }
            }
        }
        this.entries = List.copyOf(entries);
    }

    /** @return how many tokens are configured (0: every request is refused) */
    public int size() {
        return entries.size();
    }

    /**
     * Compares the presented token's SHA-256 with every entry in constant time per entry (no early exit on a
     * matching prefix), so the answer time does not tell how much of a hash matched.
     *
     * @param token the bearer token as presented
     * @return the matching entry, or empty for an unknown token
     */
    public Optional<TokenEntry> find(String token) {
        byte[] presented = sha256(token);
        TokenEntry found = null;
        for (TokenEntry entry : entries) {
            if (MessageDigest.isEqual(presented, entry.sha256())) {
                found = entry;
            }
        }
        return Optional.ofNullable(found);
    }

    /** @return the 64 lower-case hex digits of the SHA-256 of the token's UTF-8 bytes */
    public static String sha256Hex(String token) {
        return Sha256.of(token.getBytes(StandardCharsets.UTF_8));
    }

    /** @return a new token: 32 bytes from {@link SecureRandom}, URL-safe base64 without padding (43 characters) */
    public static String newToken() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static byte[] sha256(String token) {
        return Sha256.newDigest().digest(token.getBytes(StandardCharsets.UTF_8));
    }
}
