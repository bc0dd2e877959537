package io.stowage.provideradapter;

import io.quarkus.runtime.StartupEvent;
import io.stowage.events.ReleaseTargetPolicy;
import io.stowage.messaging.GateSettings;
import io.stowage.provideradapter.domain.DecisionAuthenticator;
import io.stowage.provideradapter.domain.DecisionJournal;
import io.stowage.provideradapter.domain.ReleaseHandler;
import io.stowage.provideradapter.persistence.FileDecisionJournal;
import io.stowage.provideradapter.release.LocalDiskProvider;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;

/** Produces the framework-free release handler on the local-disk provider from configuration. */
@ApplicationScoped
public class ReleaseBeans {
    private static final Logger LOG = Logger.getLogger(ReleaseBeans.class);

    /** @return the authenticator of gate decisions under {@code stowage.gate.signing-key} (refuses all without a valid key) */
    @Produces
    @ApplicationScoped
    DecisionAuthenticator decisionAuthenticator(GateSettings config) {
        return DecisionAuthenticator.of(config.signingKey());
    }

    /**
     * @return the handler deleting local directories under {@code stowage.provider-adapter.volume-roots}, never
     *         {@code stowage.gate.protected-roots} nor a home directory, with the UTC clock
     */
    @Produces
    @ApplicationScoped
    ReleaseHandler releaseHandler(GateSettings config, ProviderAdapterConfig state, DecisionAuthenticator authenticator,
                                  DecisionJournal journal) {
        ReleaseTargetPolicy policy = ReleaseTargetPolicy.of(config.protectedRoots().orElse(List.of()),
                state.volumeRoots().orElse(List.of()), System.getProperty("user.home"));
        if (policy.volumeRoots().isEmpty()) {
            LOG.error("stowage.provider-adapter.volume-roots (env STOWAGE_PROVIDER_ADAPTER_VOLUME_ROOTS) is not set: "
                    + "every gate.passed will be refused as outside-volume-roots, nothing deleted");
        }
        return new ReleaseHandler(new LocalDiskProvider(policy), authenticator, journal, Clock.systemUTC());
    }

    /**
     * @return the journal of executed decisions in {@code stowage.provider-adapter.state-dir}
     * @throws UncheckedIOException when it cannot be opened: the service does not start rather than act twice
     */
    @Produces
    @Singleton
    DecisionJournal decisionJournal(ProviderAdapterConfig state) {
        try {
            FileDecisionJournal journal = FileDecisionJournal.open(state.stateDir());
            LOG.infof("decision journal %s holds %d executed decision(s)",
                    state.stateDir().resolve(FileDecisionJournal.FILE_NAME), journal.size());
            return journal;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the decision journal in stowage.provider-adapter.state-dir "
                    + state.stateDir(), e);
        }
    }

    /** Opens the journal and warns at start-up (without the key) when every gate decision will be refused for want of a valid key. */
    void warnWithoutKey(@Observes StartupEvent start, DecisionAuthenticator authenticator, DecisionJournal journal) {
        authenticator.keyProblem().ifPresent(problem -> LOG.errorf(
                "%s (env STOWAGE_GATE_SIGNING_KEY): every gate.passed will be refused, nothing deleted", problem));
    }
}
