package io.stowage.store.s3;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;

/**
 * An HTTP proxy (WireMock) in front of a real S3 server, on loopback: it passes every request through with its Host
 * header unchanged, so the server checks the client's SigV4 signature against the host the client signed; a test adds
 * stubs of a higher priority to answer some requests as another store would, and counts the requests it saw.
 */
final class S3Proxying {
    /** The priority of the pass-through stub; a stub with a lower number wins over it. */
    static final int PASS_THROUGH_PRIORITY = 10;

    private S3Proxying() {
    }

    /** @return a started proxy passing every request to {@code s3Endpoint}; the caller stops it */
    static WireMockServer passThrough(String s3Endpoint) {
        WireMockServer proxy = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1")
                .dynamicPort().preserveHostHeader(true));
        proxy.start();
        passThrough(proxy, s3Endpoint);
        return proxy;
    }

    /** Adds (again, after a reset) the stub that passes every request to {@code s3Endpoint}. */
    static void passThrough(WireMockServer proxy, String s3Endpoint) {
        proxy.stubFor(any(anyUrl()).atPriority(PASS_THROUGH_PRIORITY).willReturn(aResponse().proxiedFrom(s3Endpoint)));
    }

    /** @return the proxy's endpoint, for a client's endpoint override */
    static java.net.URI endpoint(WireMockServer proxy) {
        return java.net.URI.create("http://127.0.0.1:" + proxy.port());
    }
}
