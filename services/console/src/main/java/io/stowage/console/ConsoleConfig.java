package io.stowage.console;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;

/** The console's settings ({@code stowage.console.*}): where the services are, how long a sign-in lasts. */
@ConfigMapping(prefix = "stowage.console")
public interface ConsoleConfig {
    /** The ledger's base URL (env {@code STOWAGE_CONSOLE_LEDGER_URL}). */
    @WithDefault("http://127.0.0.1:8086")
    String ledgerUrl();

    /**
     * The gatekeeper instances' base URLs, comma-separated, instance 1 first (env {@code STOWAGE_CONSOLE_GATEKEEPER_URL});
     * a call goes to the instance that answered last and moves on only when the connection is refused.
     */
    @WithDefault("http://127.0.0.1:8084")
    List<String> gatekeeperUrl();

    /**
     * The provider-adapter instances' base URLs, comma-separated, instance 1 first (env
     * {@code STOWAGE_CONSOLE_PROVIDER_ADAPTER_URL}): the active instance listens, a standby does not, so a call moves on
     * from a refused connection to the next instance.
     */
    @WithDefault("http://127.0.0.1:8085")
    List<String> providerAdapterUrl();

    /**
     * The verifier instances' base URLs, comma-separated, instance 1 first (env {@code STOWAGE_CONSOLE_VERIFIER_URL}):
     * they sign presigned links; a call moves on only from a refused connection.
     */
    @WithDefault("http://127.0.0.1:8083")
    List<String> verifierUrl();

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
