package io.stowage.auth;

import jakarta.inject.Singleton;

import java.util.Optional;

/**
 * The bearer token a service presents when it calls another service's API (the gatekeeper and the verifier read
 * the ledger): {@code stowage.auth.client-token}. Never logged.
 */
@Singleton
public class ClientToken {
    private final Optional<String> token;

    ClientToken(AuthConfig config) {
        this.token = config.clientToken().filter(t -> !t.isBlank());
    }

    /** @return {@code Bearer <token>} for an {@code Authorization} header, or empty when no client token is configured */
    public Optional<String> authorizationHeader() {
        return token.map(t -> "Bearer " + t);
    }
}
