package io.stowage.provideradapter;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The provider-adapter's own settings under {@code stowage.provider-adapter}, the one mapping of that prefix: the
 * durable state directory and the volume roots of releases; volumes, pods, prices and the RunPod client.
 */
@ConfigMapping(prefix = "stowage.provider-adapter")
public interface ProviderAdapterConfig {
    /**
     * Durable directory (env {@code STOWAGE_PROVIDER_ADAPTER_STATE_DIR}) of the release journal ({@code releases/}:
     * each approved request executed at most once, interrupted deletions finished, unsent outcomes re-sent) and the
     * volume and pod records. It must survive a restart. No default outside the dev and test profiles: without it
     * the service does not start ({@link #requiredStateDir}).
     */
    Optional<Path> stateDir();

    /** How often outcomes whose send failed are sent again from the release journal (also once at start); 0 = only at start. */
    @WithDefault("30s")
    Duration outcomeRetryInterval();

    /**
     * How often the retention sweep applies each run's standing policy (env
     * {@code STOWAGE_PROVIDER_ADAPTER_RETENTION_SWEEP_INTERVAL}); the first pass runs one interval after start.
     * 0 = no timer: passes run only when an operator asks ({@code POST /api/retention/sweep}). A run without a
     * schedule is never swept.
     */
    @WithDefault("1h")
    Duration retentionSweepInterval();

    /**
     * @return the state directory
     * @throws IllegalStateException with a one-line reason when it is not set
     */
    static Path requiredStateDir(ProviderAdapterConfig config) {
        return config.stateDir().orElseThrow(() -> new IllegalStateException("stowage.provider-adapter.state-dir "
                + "(env STOWAGE_PROVIDER_ADAPTER_STATE_DIR) is not set: the provider-adapter needs a durable directory "
                + "for its release journal and does not start without one"));
    }

    /**
     * Comma-separated absolute paths of the volumes whose directories may be released (the same list as the
     * gatekeeper's {@code stowage.gatekeeper.volume-roots}); a target must lie strictly under one. Default: none,
     * so every gate.passed is refused (fail closed) until it is set.
     */
    Optional<List<String>> volumeRoots();

    /** Which provider creates volumes and pods: "local" (directories with quotas) or "runpod" (RunPod REST API). */
    @WithDefault("local")
    String provider();

    /** Local provider: the directory holding one directory per volume (and its {@code .quota} file). */
    @WithDefault("${java.io.tmpdir}/stowage-volumes")
    Path volumesRoot();

    /** How often volumes and pods are checked against their time to live and caps (system clock); 0 = never. */
    @WithDefault("60s")
    Duration sweepInterval();

    /**
     * Whether {@code POST /api/sweep?at=} may sweep at an instant other than now (tests and drills move time forward
     * this way). Off by default: a sweep then always uses the system clock.
     */
    @WithDefault("false")
    boolean sweepAtAllowed();

    /** How long a run that reached its cap may checkpoint (after the "checkpoint-requested" alert) before its pods are terminated. */
    @WithDefault("10m")
    Duration runCheckpointGrace();

    /** The price table. */
    Prices prices();

    /** The RunPod client. */
    RunPod runpod();

    /** Prices in US dollars, defaults from the storage policy. */
    interface Prices {
        /** Network volume price per provisioned GB (10^9 bytes) and month. */
        @WithDefault("0.07")
        BigDecimal volumeUsdPerGbMonth();

        /** Object store (R2 Standard) price per stored GB and month; egress is free. */
        @WithDefault("0.015")
        BigDecimal storeUsdPerGbMonth();

        /** Object store GB-months free each month. */
        @WithDefault("10")
        BigDecimal storeFreeGbMonths();

        /** Hours in a billing month (RunPod bills volumes hourly). */
        @WithDefault("730")
        BigDecimal hoursPerMonth();
    }

    /** RunPod's REST API v1. */
    interface RunPod {
        /** Base URL of the API. */
        @WithDefault("https://rest.runpod.io/v1")
        URI baseUrl();

        /** Secrets-mount file holding the API key (read at start, never logged). */
        @WithDefault("/run/secrets/runpod-api-key")
        Path apiKeyFile();

        /** Data center new network volumes are created in. */
        @WithDefault("EU-RO-1")
        String dataCenterId();

        /** Where this machine sees network volumes: {@code <mount-root>/<volume id>}. */
        @WithDefault("/runpod-volume")
        Path mountRoot();

        /** Attempts per call, the first included, for 5xx, 429 and I/O errors. */
        @WithDefault("5")
        int maxAttempts();

        /** First backoff after a 5xx or I/O error; doubles each attempt. */
        @WithDefault("1s")
        Duration backoff();

        /** Longest backoff after a 5xx or I/O error. */
        @WithDefault("30s")
        Duration maxBackoff();

        /** Longest wait a 429's Retry-After is granted. */
        @WithDefault("120s")
        Duration maxRetryAfter();
    }
}
