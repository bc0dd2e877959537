package io.stowage.auth;

/**
 * What {@link AcceptedTokens#check} says about one presented bearer token.
 *
 * @param entry  the matching entry (also for an expired token), or null when no hash matches
 * @param reason null when the token is accepted; else {@link RefusedRequest#UNKNOWN_TOKEN},
 *               {@link RefusedRequest#EXPIRED_TOKEN} or {@link RefusedRequest#TOKENS_FILE_INVALID}
 */
public record TokenVerdict(TokenEntry entry, String reason) {
    /** @return true when the token may be used */
    public boolean accepted() {
        return reason == null;
    }
}
