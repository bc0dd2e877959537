package io.stowage.provideradapter.compute;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Starts a WireMock server standing in for RunPod's REST API and writes an API key file, then points the
 * provider-adapter at them ({@code provider=runpod}). The tests stub the answers through {@link #server()}.
 */
public final class RunPodApiResource implements QuarkusTestResourceLifecycleManager {
    static final String KEY = "rpa_WIRINGTESTKEY_0123456789";
    private static WireMockServer server;

    static WireMockServer server() {
        return server;
    }

    @Override
    public Map<String, String> start() {
        server = new WireMockServer(WireMockConfiguration.options().dynamicPort());
        server.start();
        try {
            Path dir = Files.createTempDirectory("runpod-wiring-");
            Path key = Files.writeString(dir.resolve("runpod-api-key"), KEY);
            return Map.of("stowage.provider-adapter.provider", "runpod",
                    "stowage.provider-adapter.runpod.base-url", server.baseUrl() + "/v1",
                    "stowage.provider-adapter.runpod.api-key-file", key.toString(),
                    "stowage.provider-adapter.runpod.mount-root", dir.resolve("mnt").toString(),
                    "stowage.provider-adapter.runpod.backoff", "10ms",
                    "stowage.provider-adapter.runpod.max-attempts", "3");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop();
        }
    }
}
