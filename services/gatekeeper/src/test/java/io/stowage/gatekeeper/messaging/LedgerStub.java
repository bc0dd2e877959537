package io.stowage.gatekeeper.messaging;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/**
 * Stands in for the ledger service (another of our services, which this test cannot start): a
 * WireMock HTTP server on a free loopback port whose stubs each test sets to answer like the real
 * ledger would; provides {@code stowage.ledger.url}.
 */
public final class LedgerStub implements QuarkusTestResourceLifecycleManager {
    static volatile WireMockServer server;

    @Override
    public Map<String, String> start() {
        server = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1").dynamicPort());
        server.start();
        return Map.of("stowage.ledger.url", "http://127.0.0.1:" + server.port());
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop();
        }
    }
}
