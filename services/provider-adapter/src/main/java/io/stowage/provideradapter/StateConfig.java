package io.stowage.provideradapter;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.nio.file.Path;

/** The provider-adapter's own settings under {@code stowage.provider-adapter}. */
@ConfigMapping(prefix = "stowage.provider-adapter")
public interface StateConfig {
    /** Directory of the journal of executed gate decisions (acts at most once per decision id across restarts). */
    @WithDefault("${java.io.tmpdir}/stowage-provider-adapter")
    Path stateDir();
}
