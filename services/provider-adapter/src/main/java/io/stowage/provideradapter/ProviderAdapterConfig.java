package io.stowage.provideradapter;

import io.smallrye.config.ConfigMapping;

import java.util.List;
import java.util.Optional;

/** The gate's shared settings under {@code stowage.gate}, re-checked before every deletion. */
@ConfigMapping(prefix = "stowage.gate")
public interface ProviderAdapterConfig {
    /** Comma-separated absolute paths that can never be released, nor their ancestors; {@code /} always is. Default: none. */
    Optional<List<String>> protectedRoots();

    /**
     * The gatekeeper's HMAC key (UTF-8, at least 32 bytes; env {@code STOWAGE_GATE_SIGNING_KEY}). No default: without
     * a valid key the service starts but refuses every gate.passed (fail closed).
     */
    Optional<String> signingKey();
}
