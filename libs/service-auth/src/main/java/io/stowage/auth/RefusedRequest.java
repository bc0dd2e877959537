package io.stowage.auth;

/**
 * One HTTP request refused by the bearer-token check, as {@link RefusalListener} fires it (a CDI event) for the
 * service to record. Holds no token and no hash.
 *
 * @param method    HTTP method, e.g. {@code POST}
 * @param path      request path without query, e.g. {@code /api/releases}
 * @param status    401 (no or unknown token) or 403 (known token, role too low)
 * @param reason    {@code missing-token}, {@code unknown-token} or {@code insufficient-role}
 * @param tokenName the known token's configured name, null for 401
 * @param tokenRole the known token's role ({@code reader}), null for 401
 * @param remote    the client's address ({@code host:port}), null when unknown
 */
public record RefusedRequest(String method, String path, int status, String reason, String tokenName, String tokenRole,
                             String remote) {
    /** No {@code Authorization} header. */
    public static final String MISSING_TOKEN = "missing-token";
    /** A bearer token no configured hash matches (or a header that is not a bearer token). */
    public static final String UNKNOWN_TOKEN = "unknown-token";
    /** A known token whose role does not allow the endpoint (a reader asking to change something). */
    public static final String INSUFFICIENT_ROLE = "insufficient-role";
}
