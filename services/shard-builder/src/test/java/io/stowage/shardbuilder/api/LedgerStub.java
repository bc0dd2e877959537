package io.stowage.shardbuilder.api;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

/**
 * Stands in for the ledger service (another of our services, which these tests cannot start): a WireMock HTTP server
 * on a free loopback port that by default answers {@code GET /api/assets} with 404 (no revision is sealed), as the
 * real ledger does for an asset it does not know; a test may stub other answers. Provides {@code stowage.ledger.url}.
 */
public final class LedgerStub implements QuarkusTestResourceLifecycleManager {
    static volatile WireMockServer server;

    @Override
    public Map<String, String> start() {
        server = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1").dynamicPort());
        server.start();
        unsealedByDefault();
        return Map.of("stowage.ledger.url", "http://127.0.0.1:" + server.port(), "stowage.ledger.timeout", "2s");
    }

    /** Drops every stub a test added and answers 404 for every asset again. */
    static void unsealedByDefault() {
        server.resetAll();
        server.stubFor(get(urlPathEqualTo("/api/assets")).atPriority(10).willReturn(aResponse().withStatus(404)));
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop();
        }
    }
}
