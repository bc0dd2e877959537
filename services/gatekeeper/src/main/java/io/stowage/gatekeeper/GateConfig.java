package io.stowage.gatekeeper;

import io.smallrye.config.ConfigMapping;

import java.util.List;
import java.util.Optional;

/** The gate's shared settings under {@code stowage.gate} (also read by the provider-adapter). */
@ConfigMapping(prefix = "stowage.gate")
public interface GateConfig {
    /** Comma-separated absolute paths that can never be released, nor their ancestors; {@code /} always is. Default: none. */
    Optional<List<String>> protectedRoots();
}
