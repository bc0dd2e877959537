package io.stowage.provideradapter;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The provider-adapter's own settings under {@code stowage.provider-adapter}. */
@ConfigMapping(prefix = "stowage.provider-adapter")
public interface StateConfig {
    /** Directory of the journal of executed gate decisions (acts at most once per decision id across restarts). */
    @WithDefault("${java.io.tmpdir}/stowage-provider-adapter")
    Path stateDir();

    /**
     * Comma-separated absolute paths of the volumes whose directories may be released (the same list as the
     * gatekeeper's {@code stowage.gatekeeper.volume-roots}); a target must lie strictly under one. Default: none,
     * so every gate.passed is refused (fail closed) until it is set.
     */
    Optional<List<String>> volumeRoots();
}
