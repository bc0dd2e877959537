package io.stowage.messaging;

import io.smallrye.config.ConfigMapping;

import java.util.List;
import java.util.Optional;

/**
 * The gate's shared settings under {@code stowage.gate}, the one mapping of that prefix: read by the gatekeeper (which
 * signs its decisions) and the provider-adapter (which verifies them and re-checks the protected roots before every
 * deletion). Kept here, beside the events both exchange, so that neither service keeps its own copy.
 */
@ConfigMapping(prefix = "stowage.gate")
public interface GateSettings {
    /** Comma-separated absolute paths that can never be released, nor their ancestors; {@code /} always is. Default: none. */
    Optional<List<String>> protectedRoots();

    /**
     * Key (UTF-8, at least 32 bytes) of the HMAC-SHA256 that signs every gate decision; shared by the gatekeeper and
     * the provider-adapter only, from env {@code STOWAGE_GATE_SIGNING_KEY} or the secrets mount. No default: without it
     * the gatekeeper does not start and the provider-adapter refuses every gate.passed (fail closed).
     */
    Optional<String> signingKey();
}
