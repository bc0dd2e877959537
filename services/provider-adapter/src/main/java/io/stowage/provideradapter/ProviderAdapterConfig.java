package io.stowage.provideradapter;

import io.smallrye.config.ConfigMapping;

import java.util.List;
import java.util.Optional;

/** The gate's shared setting under {@code stowage.gate}, re-checked before every deletion. */
@ConfigMapping(prefix = "stowage.gate")
public interface ProviderAdapterConfig {
    /** Comma-separated absolute paths that can never be released, nor their ancestors; {@code /} always is. Default: none. */
    Optional<List<String>> protectedRoots();
}
