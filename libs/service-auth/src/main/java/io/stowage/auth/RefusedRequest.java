package io.stowage.auth;

/**
 * One HTTP request refused by the bearer-token check, as {@link RefusalListener} fires it (a CDI event) for the
 * service to record. Holds no token and no hash.
 *
 * @param method    HTTP method, e.g. {@code POST}
 * @param path      request path without query, e.g. {@code /api/releases}
 * @param status    401 (no, malformed, unknown or expired token) or 403 (known token, role too low)
 * @param reason    {@code missing-token}, {@code malformed-header}, {@code unknown-token}, {@code expired-token},
 *                  {@code tokens-file-invalid} or {@code insufficient-role}
 * @param tokenName the known token's configured name (403, and 401 {@code expired-token}); else null
 * @param tokenRole the known token's role ({@code reader}); null when the name is
 * @param remote    the client's address ({@code host:port}), null when unknown
 */
public record RefusedRequest(String method, String path, int status, String reason, String tokenName, String tokenRole,
                             String remote) {
    /** No {@code Authorization} header. */
    public static final String MISSING_TOKEN = "missing-token";
    /** An {@code Authorization} header that is not {@code Bearer <token>} (e.g. {@code Basic …}, or no token after it). */
    public static final String MALFORMED_HEADER = "malformed-header";
    /** A bearer token no accepted hash matches (never configured, or its line removed: revoked). */
    public static final String UNKNOWN_TOKEN = "unknown-token";
    /** A known bearer token whose expiry ({@code expires-at}, the line's fourth field) has come. */
    public static final String EXPIRED_TOKEN = "expired-token";
    /** A token no configured hash matches while the tokens file is unreadable or malformed (every file token refused). */
    public static final String TOKENS_FILE_INVALID = "tokens-file-invalid";
    /** A known token whose role does not allow the endpoint (a reader asking to change something). */
    public static final String INSUFFICIENT_ROLE = "insufficient-role";
}
