package io.stowage.provideradapter.retention;

import io.quarkus.runtime.ShutdownEvent;
import io.stowage.auth.ClientToken;
import io.stowage.events.GateSignature;
import io.stowage.messaging.GateSettings;
import io.stowage.provideradapter.domain.DecisionAuthenticator;
import io.stowage.provideradapter.domain.retention.RetentionDecider;
import io.stowage.provideradapter.domain.retention.RetentionExecutor;
import io.stowage.provideradapter.storage.S3RetentionSources;
import io.stowage.store.StoreConfig;
import io.stowage.store.StoreSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import java.net.URI;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Produces {@link Retention}: the retention decider and executor on the ledger ({@code stowage.ledger.url}, client
 * token {@code stowage.auth.client-token}), the stores ({@code stowage.store.primary.*}, {@code stowage.store.replica.*},
 * as the uploader and verifier read them; required) and the gate's signing key ({@code stowage.gate.signing-key}).
 * Without a valid key, retention is off: every call answers why, and nothing is deleted.
 */
@ApplicationScoped
public class RetentionBeans {
    private static final Logger LOG = Logger.getLogger(RetentionBeans.class);
    private S3RetentionSources sources;

    @Produces
    @Singleton
    Retention retention(Config config, StoreSettings settings, GateSettings gate, DecisionAuthenticator authenticator,
                        ClientToken token) {
        GateSignature signature;
        try {
            signature = new GateSignature(gate.signingKey().orElse(null));
        } catch (IllegalArgumentException e) {
            return Retention.off("stowage.gate.signing-key is not set to a valid key (" + e.getMessage() + ")");
        }
        Map<String, StoreConfig> stores = new LinkedHashMap<>();
        stores.put("primary", StoreSettings.config("primary", settings.primary()));
        stores.put("replica", StoreSettings.config("replica", settings.replica()));
        URI ledger = URI.create(config.getOptionalValue("stowage.ledger.url", String.class).orElse("http://127.0.0.1:8086"));
        sources = new S3RetentionSources(ledger, token.authorizationHeader(), stores);
        Clock clock = Clock.systemUTC();
        return Retention.on(new RetentionDecider(sources, signature, clock), new RetentionExecutor(sources, authenticator, clock));
    }

    void close(@Observes ShutdownEvent stop) {
        if (sources != null) {
            sources.close();
        }
    }

    /** The decider and executor, or why retention is off. */
    public record Retention(RetentionDecider decider, RetentionExecutor executor, String offBecause) {
        static Retention on(RetentionDecider decider, RetentionExecutor executor) {
            return new Retention(decider, executor, null);
        }

        static Retention off(String why) {
            return new Retention(null, null, why);
        }
    }
}
