package io.stowage.console.session;

import io.stowage.auth.Roles;

/**
 * The person behind a request: the configured name and role of the bearer token they signed in with, and the token
 * itself, which the console presents to the services on their behalf and never renders into a page.
 *
 * @param name  the token's configured name, e.g. {@code alice}
 * @param role  {@code reader} or {@code operator}
 * @param token the bearer token (kept server-side only)
 */
public record Viewer(String name, String role, String token) {
    /** @return true for an operator token: may ask for releases */
    public boolean operator() {
        return Roles.OPERATOR.equals(role);
    }

    /** @return {@code Bearer <token>} for the services' {@code Authorization} header */
    public String authorization() {
        return "Bearer " + token;
    }

    @Override
    public String toString() {
        return "Viewer[" + name + ", " + role + "]";
    }
}
