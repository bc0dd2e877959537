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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a bearer token into a {@link SecurityIdentity}: principal = the token's configured name, roles from
 * {@link Roles#grantedBy}. An unknown token fails with {@link AuthenticationFailedException} (HTTP 401).
 * The table is read once, at start-up, from {@code stowage.auth.tokens} and {@code stowage.auth.tokens-file};
 * a malformed line stops the service with a message naming the line's number, never its content.
 */
@Singleton
public class TokenIdentityProvider implements IdentityProvider<TokenAuthenticationRequest> {
    private static final Logger LOG = Logger.getLogger(TokenIdentityProvider.class);

    private final TokenTable table;

    TokenIdentityProvider(AuthConfig config) {
        List<TokenEntry> entries = new ArrayList<>();
        config.tokens().orElse(List.of()).stream().filter(line -> !line.isBlank()).map(TokenEntry::parse).forEach(entries::add);
        config.tokensFile().ifPresent(file -> {
            try {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i).strip();
                    if (line.isEmpty() || line.startsWith("#")) {
                        continue;
                    }
                    try {
                        entries.add(TokenEntry.parse(line));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(file + " line " + (i + 1) + ": " + e.getMessage(), e);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read stowage.auth.tokens-file " + file + ": " + e.getMessage(), e);
            }
        });
        this.table = new TokenTable(entries);
        LOG.infof("bearer tokens: %d configured (%s)", table.size(),
                String.join(", ", entries.stream().map(e -> e.role() + ":" + e.name()).toList()));
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        return table.find(request.getToken().getToken())
                .<Uni<SecurityIdentity>>map(entry -> Uni.createFrom().item(QuarkusSecurityIdentity.builder()
                        .setPrincipal(new QuarkusPrincipal(entry.name()))
                        .addRoles(Roles.grantedBy(entry.role()))
                        .addAttribute(TokenIdentityProvider.ROLE_ATTRIBUTE, entry.role())
                        .build()))
                .orElseGet(() -> Uni.createFrom().failure(new AuthenticationFailedException("unknown bearer token")));
    }

    /** Identity attribute holding the token's configured role ({@code reader} or {@code operator}). */
    public static final String ROLE_ATTRIBUTE = "stowage.token-role";
}
