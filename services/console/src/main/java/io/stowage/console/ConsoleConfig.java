package io.stowage.console;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** The console's settings ({@code stowage.console.*}): where the services are, how long a sign-in lasts. */
@ConfigMapping(prefix = "stowage.console")
public interface ConsoleConfig {
    /** The ledger's base URL (env {@code STOWAGE_CONSOLE_LEDGER_URL}). */
    @WithDefault("http://127.0.0.1:8086")
    String ledgerUrl();

    /** The gatekeeper's base URL (env {@code STOWAGE_CONSOLE_GATEKEEPER_URL}). */
    @WithDefault("http://127.0.0.1:8084")
    String gatekeeperUrl();

    /** The provider-adapter's base URL (env {@code STOWAGE_CONSOLE_PROVIDER_ADAPTER_URL}). */
    @WithDefault("http://127.0.0.1:8085")
    String providerAdapterUrl();

    /** The verifier's base URL (env {@code STOWAGE_CONSOLE_VERIFIER_URL}): it signs presigned links. */
    @WithDefault("http://127.0.0.1:8083")
    String verifierUrl();

    /** How long a signed-in session lasts without a new sign-in. Default 8 hours. */
    @WithDefault("PT8H")
    Duration sessionTtl();

    /** How long a release asked from a page waits for the gate's decision and the release. Default 180 s. */
    @WithDefault("PT180S")
    Duration releaseWait();

    /** Mark the session cookie {@code Secure} (set when the console is served over HTTPS). Default false (loopback). */
    @WithDefault("false")
    boolean secureCookie();
}
