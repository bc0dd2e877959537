package io.stowage.provideradapter;

import io.quarkus.runtime.StartupEvent;
import io.stowage.events.ProtectedRoots;
import io.stowage.provideradapter.domain.DecisionAuthenticator;
import io.stowage.provideradapter.domain.ReleaseHandler;
import io.stowage.provideradapter.provider.LocalDiskProvider;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.List;

/** Produces the framework-free release handler on the local-disk provider from configuration. */
@ApplicationScoped
public class ReleaseBeans {
    private static final Logger LOG = Logger.getLogger(ReleaseBeans.class);

    /** @return the authenticator of gate decisions under {@code stowage.gate.signing-key} (refuses all without a valid key) */
    @Produces
    @ApplicationScoped
    DecisionAuthenticator decisionAuthenticator(ProviderAdapterConfig config) {
        return DecisionAuthenticator.of(config.signingKey());
    }

    /** @return the handler deleting local directories, with {@code stowage.gate.protected-roots} and the UTC clock */
    @Produces
    @ApplicationScoped
    ReleaseHandler releaseHandler(ProviderAdapterConfig config, DecisionAuthenticator authenticator) {
        ProtectedRoots roots = ProtectedRoots.parse(config.protectedRoots().orElse(List.of()));
        return new ReleaseHandler(new LocalDiskProvider(roots), authenticator, Clock.systemUTC());
    }

    /** Warns at start-up (without the key) when every gate decision will be refused for want of a valid key. */
    void warnWithoutKey(@Observes StartupEvent start, DecisionAuthenticator authenticator) {
        authenticator.keyProblem().ifPresent(problem -> LOG.errorf(
                "%s (env STOWAGE_GATE_SIGNING_KEY): every gate.passed will be refused, nothing deleted", problem));
    }
}
