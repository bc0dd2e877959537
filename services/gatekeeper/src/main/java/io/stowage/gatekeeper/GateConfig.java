package io.stowage.gatekeeper;

import io.smallrye.config.ConfigMapping;

import java.util.List;
import java.util.Optional;

/** The gate's shared settings under {@code stowage.gate} (also read by the provider-adapter). */
@ConfigMapping(prefix = "stowage.gate")
public interface GateConfig {
    /** Comma-separated absolute paths that can never be released, nor their ancestors; {@code /} always is. Default: none. */
    Optional<List<String>> protectedRoots();

    /**
     * Key (UTF-8, at least 32 bytes) of the HMAC-SHA256 that signs every gate decision; shared with the
     * provider-adapter only, from env {@code STOWAGE_GATE_SIGNING_KEY}. No default: without it the gatekeeper does not start.
     */
    Optional<String> signingKey();
}
