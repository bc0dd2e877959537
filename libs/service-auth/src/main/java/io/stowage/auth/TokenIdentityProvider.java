package io.stowage.auth;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a bearer token into a {@link SecurityIdentity}: principal = the token's configured name, roles from
 * {@link Roles#grantedBy}. A refused token fails with {@link AuthenticationFailedException} (HTTP 401) whose attribute
 * {@link #REASON_ATTRIBUTE} says why ({@code unknown-token}, {@code expired-token}, {@code tokens-file-invalid}).
 * The accepted tokens are {@code stowage.auth.tokens} (read at start-up) and {@code stowage.auth.tokens-file}, which is
 * re-read when it changes (looked at at most once a second, {@link TokenFile}); a malformed line at start-up stops the
 * service with a message naming the line's number, never its content.
 */
@Singleton
public class TokenIdentityProvider implements IdentityProvider<TokenAuthenticationRequest> {
    private static final Logger LOG = Logger.getLogger(TokenIdentityProvider.class);
    /** Identity attribute holding the token's configured role ({@code reader} or {@code operator}). */
    public static final String ROLE_ATTRIBUTE = "stowage.token-role";
    /** Attribute of a refusal's {@link AuthenticationFailedException}: the reason, a {@link RefusedRequest} constant. */
    public static final String REASON_ATTRIBUTE = "stowage.refusal-reason";
    /** Attribute of a refusal's exception: the known (expired) token's name, absent for an unknown token. */
    public static final String NAME_ATTRIBUTE = "stowage.token-name";
    private static final Duration RELOAD_INTERVAL = Duration.ofSeconds(1);

    private final AcceptedTokens tokens;

    TokenIdentityProvider(AuthConfig config) {
        List<TokenEntry> configured = configured(config.tokens().orElse(List.of()));
        TokenFile file = config.tokensFile()
                .map(path -> TokenFile.open(path, Clock.systemUTC(), RELOAD_INTERVAL, LOG::info, LOG::warn)).orElse(null);
        this.tokens = new AcceptedTokens(configured, file, Clock.systemUTC());
        LOG.infof("bearer tokens: %d configured (%s)%s", tokens.entries().size(),
                String.join(", ", tokens.entries().stream().map(TokenEntry::label).toList()),
                file == null ? "" : "; tokens file " + file.path() + " is re-read when it changes");
    }

    /** @throws IllegalArgumentException naming the entry's position in {@code stowage.auth.tokens} and what is wrong */
    private static List<TokenEntry> configured(List<String> lines) {
        List<String> nonBlank = lines.stream().filter(line -> !line.isBlank()).toList();
        List<TokenEntry> entries = new java.util.ArrayList<>();
        for (int i = 0; i < nonBlank.size(); i++) {
            try {
                entries.add(TokenEntry.parse(nonBlank.get(i)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("stowage.auth.tokens entry " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return entries;
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        TokenVerdict verdict = tokens.check(request.getToken().getToken());
        if (!verdict.accepted()) {
            return Uni.createFrom().failure(refusal(verdict));
        }
        TokenEntry entry = verdict.entry();
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(entry.name()))
                .addRoles(Roles.grantedBy(entry.role()))
                .addAttribute(ROLE_ATTRIBUTE, entry.role())
                .build());
    }

    /** @return a 401 failure carrying the reason (and, for an expired token, its name and role) */
    static AuthenticationFailedException refusal(TokenVerdict verdict) {
        Map<String, Object> attributes = new HashMap<>();
        attributes.put(REASON_ATTRIBUTE, verdict.reason());
        if (verdict.entry() != null) {
            attributes.put(NAME_ATTRIBUTE, verdict.entry().name());
            attributes.put(ROLE_ATTRIBUTE, verdict.entry().role());
        }
        return new AuthenticationFailedException("bearer token refused: " + verdict.reason(), attributes);
    }
}
