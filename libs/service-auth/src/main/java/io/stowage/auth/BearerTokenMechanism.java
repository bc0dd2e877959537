package io.stowage.auth;

import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;

import java.util.Set;

/**
 * Reads {@code Authorization: Bearer <token>} and hands the token to the identity providers
 * ({@link TokenIdentityProvider}). No header: anonymous (a secured endpoint then answers 401 with
 * {@code WWW-Authenticate: Bearer}); a header that is not a bearer token is treated as a wrong token (401).
 */
@Singleton
public class BearerTokenMechanism implements HttpAuthenticationMechanism {
    private static final String PREFIX = "bearer ";

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        String header = context.request().getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || header.isBlank()) {
            return Uni.createFrom().optional(java.util.Optional.empty());
        }
        String token = header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())
                ? header.substring(PREFIX.length()).strip() : "";
        return identityProviderManager.authenticate(new TokenAuthenticationRequest(new TokenCredential(token, "bearer")));
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", "Bearer realm=\"stowage\""));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(TokenAuthenticationRequest.class);
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext context) {
        return Uni.createFrom().item(new HttpCredentialTransport(HttpCredentialTransport.Type.AUTHORIZATION, "bearer"));
    }
}
