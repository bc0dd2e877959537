package io.stowage.provideradapter;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The provider-adapter's own settings under {@code stowage.provider-adapter}. */
@ConfigMapping(prefix = "stowage.provider-adapter")
public interface StateConfig {
    /**
     * Durable directory (env {@code STOWAGE_PROVIDER_ADAPTER_STATE_DIR}) of the release journal ({@code releases/}:
     * each approved request executed at most once, interrupted deletions finished, unsent outcomes re-sent) and the
     * volume and pod records. It must survive a restart. No default outside the dev and test profiles: without it
     * the service does not start.
     */
    Optional<Path> stateDir();

    /** How often outcomes whose send failed are sent again from the release journal (also once at start); 0 = only at start. */
    @WithDefault("30s")
    Duration outcomeRetryInterval();

    /**
     * Comma-separated absolute paths of the volumes whose directories may be released (the same list as the
     * gatekeeper's {@code stowage.gatekeeper.volume-roots}); a target must lie strictly under one. Default: none,
     * so every gate.passed is refused (fail closed) until it is set.
     */
    Optional<List<String>> volumeRoots();

    /**
     * @return the state directory
     * @throws IllegalStateException with a one-line reason when it is not set
     */
    static Path required(StateConfig config) {
        return config.stateDir().orElseThrow(() -> new IllegalStateException("stowage.provider-adapter.state-dir "
                + "(env STOWAGE_PROVIDER_ADAPTER_STATE_DIR) is not set: the provider-adapter needs a durable directory "
                + "for its release journal and does not start without one"));
    }
}
