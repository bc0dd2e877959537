package io.stowage.gatekeeper;

import io.quarkus.runtime.StartupEvent;
import io.stowage.events.GateSignature;
import io.stowage.events.ReleaseTargetPolicy;
import io.stowage.gatekeeper.domain.GateEvaluator;
import io.stowage.gatekeeper.storage.FileSystemTree;
import io.stowage.gatekeeper.storage.StoreHeads;
import io.stowage.store.StoreSettings;
import io.stowage.messaging.GateSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.List;

/**
 * Produces the framework-free gate objects from configuration: the evaluator on the real disk and the stores' HEADs,
 * the decision signer and the clock. Refuses to start without a valid {@code stowage.gate.signing-key}.
 */
@ApplicationScoped
public class GateBeans {
    private static final Logger LOG = Logger.getLogger(GateBeans.class);

    /**
     * @return the gate over the real filesystem with {@code stowage.gate.protected-roots},
     *         {@code stowage.gatekeeper.volume-roots} and this service's {@code user.home}
     */
    @Produces
    @ApplicationScoped
    GateEvaluator gateEvaluator(GateSettings config, GatekeeperConfig gatekeeper, StoreHeads stores) {
        ReleaseTargetPolicy policy = ReleaseTargetPolicy.of(config.protectedRoots().orElse(List.of()),
                gatekeeper.volumeRoots().orElse(List.of()), System.getProperty("user.home"));
        if (policy.volumeRoots().isEmpty()) {
            LOG.error("stowage.gatekeeper.volume-roots (env STOWAGE_GATEKEEPER_VOLUME_ROOTS) is not set: every release "
                    + "request will be denied as outside-volume-roots");
        }
        return new GateEvaluator(policy, new FileSystemTree(), stores, gatekeeper.rereadAtDecision());
    }

    /**
     * @return the gate's look (HEAD and full read, never a write) at the primary and replica stores ({@code stowage.store.*}, read credentials;
     *         {@code stowage.gatekeeper.store-heads-in-flight}, {@code stowage.gatekeeper.store-head-attempts},
     *         {@code stowage.gatekeeper.store-look-timeout}, {@code stowage.gatekeeper.store-reread-timeout})
     */
    @Produces
    @Singleton
    StoreHeads storeHeads(StoreSettings stores, GatekeeperConfig gatekeeper) {
        return new StoreHeads(List.of(StoreSettings.config("primary", stores.primary()),
                StoreSettings.config("replica", stores.replica())), gatekeeper.storeHeadsInFlight(),
                gatekeeper.storeHeadAttempts(), gatekeeper.storeLookTimeout(), gatekeeper.storeRereadTimeout());
    }

    void closeStoreHeads(@Disposes StoreHeads stores) {
        stores.close();
    }

    /**
     * @return the HMAC signer of gate decisions under {@code stowage.gate.signing-key}
     * @throws IllegalStateException when the key is missing or shorter than 32 bytes (the message never holds the key)
     */
    @Produces
    @Singleton
    GateSignature gateSignature(GateSettings config) {
        try {
            return new GateSignature(config.signingKey().orElse(null));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("stowage.gate.signing-key (env STOWAGE_GATE_SIGNING_KEY): " + e.getMessage()
                    + "; the gatekeeper does not start without it", e);
        }
    }

    /** Creates the signer at start-up so that a missing or short key stops the service before it consumes anything. */
    void checkSigningKey(@Observes StartupEvent start, GateSignature signature) {
        // injecting the signer is the check
    }

    /** @return UTC wall clock for event times */
    @Produces
    @ApplicationScoped
    Clock clock() {
        return Clock.systemUTC();
    }
}
