package io.stowage.auth;

import io.smallrye.config.ConfigMapping;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The tokens a service accepts and the one it presents to the ledger ({@code stowage.auth.*}, docs/security/tokens.md).
 * Without any configured token every API request is answered 401 (fail closed); health stays open.
 */
@ConfigMapping(prefix = "stowage.auth")
public interface AuthConfig {
    /** Accepted tokens, comma-separated {@code <role>:<name>:<sha256-hex>} lines (hashes only, never tokens). Default none. */
    Optional<List<String>> tokens();

    /** A file of more token lines, one per line ({@code #} comments, blank lines skipped), e.g. under the secrets mount. Default none. */
    Optional<Path> tokensFile();

    /** The bearer token this service sends when it calls another service's API (the ledger), e.g. env {@code STOWAGE_AUTH_CLIENT_TOKEN}. Default none. */
    Optional<String> clientToken();
}
