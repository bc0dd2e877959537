package io.stowage.console.client;

import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.stowage.console.ConsoleConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.net.URI;
import java.util.concurrent.TimeUnit;

/**
 * The clients of the services that may run as several instances, each a {@link FailoverClient} over the base URLs in
 * {@link ConsoleConfig} (a comma-separated list, instance 1 first): the provider-adapter, the gatekeeper and the verifier.
 * The ledger runs once and keeps its configured REST client ({@link LedgerApi}).
 */
@Singleton
public class ServiceClients {
    private final ConsoleConfig config;
    private final long connectTimeoutMillis;
    private final long readTimeoutMillis;

    ServiceClients(ConsoleConfig config,
                   @ConfigProperty(name = "quarkus.rest-client.connect-timeout", defaultValue = "5000") long connectTimeoutMillis,
                   @ConfigProperty(name = "quarkus.rest-client.read-timeout", defaultValue = "60000") long readTimeoutMillis) {
        this.config = config;
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.readTimeoutMillis = readTimeoutMillis;
    }

    /** @return the provider-adapter's API over {@link ConsoleConfig#providerAdapterUrl()} */
    @Produces
    @Singleton
    ProviderApi provider() {
        return FailoverClient.of(ProviderApi.class, config.providerAdapterUrl(), url -> build(ProviderApi.class, url));
    }

    /** @return the gatekeeper's API over {@link ConsoleConfig#gatekeeperUrl()} */
    @Produces
    @Singleton
    GatekeeperApi gatekeeper() {
        return FailoverClient.of(GatekeeperApi.class, config.gatekeeperUrl(), url -> build(GatekeeperApi.class, url));
    }

    /** @return the verifier's API over {@link ConsoleConfig#verifierUrl()} */
    @Produces
    @Singleton
    VerifierApi verifier() {
        return FailoverClient.of(VerifierApi.class, config.verifierUrl(), url -> build(VerifierApi.class, url));
    }

    private <T> T build(Class<T> api, String url) {
        return QuarkusRestClientBuilder.newBuilder().baseUri(URI.create(url))
                .connectTimeout(connectTimeoutMillis, TimeUnit.MILLISECONDS)
                .readTimeout(readTimeoutMillis, TimeUnit.MILLISECONDS).build(api);
    }
}
