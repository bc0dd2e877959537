package io.stowage.console.session;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.stowage.auth.TokenIdentityProvider;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Optional;

/**
 * Checks a bearer token the way every service does: against the configured SHA-256 token lines
 * ({@code stowage.auth.tokens}, the same lines the services get) through {@link TokenIdentityProvider}.
 */
@ApplicationScoped
public class TokenCheck {
    private final IdentityProviderManager identities;

    TokenCheck(IdentityProviderManager identities) {
        this.identities = identities;
    }

    /** @return the viewer the token belongs to, or empty for a blank or unknown token; blocking */
    public Optional<Viewer> check(String token) {
        if (token == null || token.isBlank()) {
            return Optional.empty();
        }
        String stripped = token.strip();
        try {
            SecurityIdentity identity = identities.authenticateBlocking(
                    new TokenAuthenticationRequest(new TokenCredential(stripped, "bearer")));
            return Optional.of(of(identity, stripped));
        } catch (AuthenticationFailedException e) {
            return Optional.empty();
        }
    }

    /** @return the viewer of an identity the bearer mechanism already established for {@code token} */
    static Viewer of(SecurityIdentity identity, String token) {
        String role = identity.getAttribute(TokenIdentityProvider.ROLE_ATTRIBUTE);
        return new Viewer(identity.getPrincipal().getName(), role, token);
    }
}
