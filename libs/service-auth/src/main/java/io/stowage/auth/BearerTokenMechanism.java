package io.stowage.auth;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code Authorization: Bearer <token>} and hands the token to the identity providers
 * ({@link TokenIdentityProvider}). No header: anonymous (a secured endpoint then answers 401 {@code missing-token},
 * {@link RefusalAnswers}); a header that is not {@code Bearer <token>} fails at once ({@code malformed-header}). A
 * refused token is answered here: 401, {@code WWW-Authenticate: Bearer realm="stowage"} and
 * {@code {"error":"unauthorized","reason":"…"}} ({@link RefusalAnswers#unauthorizedBody}); never the token.
 */
@Singleton
public class BearerTokenMechanism implements HttpAuthenticationMechanism {
    /** The challenge every 401 carries. */
    public static final String CHALLENGE = "Bearer realm=\"stowage\"";
    /** Routing-context key under which a refused request's reason is kept for its answer. */
    static final String REASON_KEY = "stowage.auth.refusal-reason";
    private static final String PREFIX = "bearer ";

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        String header = context.request().getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || header.isBlank()) {
            return Uni.createFrom().optional(Optional.empty());
        }
        String token = header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())
                ? header.substring(PREFIX.length()).strip() : "";
        if (token.isEmpty()) {
            context.put(REASON_KEY, RefusedRequest.MALFORMED_HEADER);
            return Uni.createFrom().failure(new AuthenticationFailedException("not a bearer token",
                    Map.of(TokenIdentityProvider.REASON_ATTRIBUTE, RefusedRequest.MALFORMED_HEADER)));
        }
        return identityProviderManager.authenticate(new TokenAuthenticationRequest(new TokenCredential(token, "bearer")))
                .onFailure().invoke(failure -> context.put(REASON_KEY, reasonOf(failure)));
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", CHALLENGE));
    }

    /** Answers a refused token itself, so that the 401 carries its reason as JSON. */
    @Override
    public Uni<Boolean> sendChallenge(RoutingContext context) {
        String reason = context.get(REASON_KEY);
        context.response().setStatusCode(401)
                .putHeader("WWW-Authenticate", CHALLENGE)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(RefusalAnswers.unauthorizedBody(reason != null ? reason : RefusedRequest.MISSING_TOKEN));
        return Uni.createFrom().item(true);
    }

    /** @return the reason a failed authentication carries ({@link TokenIdentityProvider#REASON_ATTRIBUTE}), else unknown */
    static String reasonOf(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof AuthenticationFailedException refused && refused.getAttribute(TokenIdentityProvider.REASON_ATTRIBUTE) != null) {
                return refused.getAttribute(TokenIdentityProvider.REASON_ATTRIBUTE);
            }
        }
        return RefusedRequest.UNKNOWN_TOKEN;
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
