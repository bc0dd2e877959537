package io.stowage.cli.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.stowage.cli.CliException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The CLI's waits end on a dead letter: an HTTP server on loopback answers the ledger's query API as the ledger does
 * for an asset that a service refused (not yet recorded, one dead letter among its events).
 */
class LedgerClientDeadLetterTest {
    private static final String CHECKPOINT = "checkpoint/e/r/000000000007";
    private static final String DEAD_LETTER = "[{\"eventId\":\"dlq:ev-1\",\"topic\":\"stowage.checkpoint.published.dlq\","
            + "\"type\":\"checkpoint.published\",\"time\":\"2026-12-01T10:00:00Z\",\"deadLetter\":true,"
            + "\"reason\":\"unreadable event: files[0].bytes is negative\"},"
            + "{\"eventId\":\"ev-0\",\"topic\":\"stowage.checkpoint.published\",\"type\":\"checkpoint.published\","
            + "\"time\":\"2026-12-01T09:00:00Z\",\"deadLetter\":false,\"reason\":null}]";
    private HttpServer ledger;
    private volatile String eventsOfAsset = "[]";
    private volatile String eventsOfRelease = "[]";

    @BeforeEach
    void start() throws IOException {
        ledger = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        ledger.createContext("/api/assets", exchange -> answer(exchange, 404, ""));
        ledger.createContext("/api/releases/", exchange -> answer(exchange, 404, ""));
        ledger.createContext("/api/events", exchange -> answer(exchange, 200,
                exchange.getRequestURI().getRawQuery().contains("release") ? eventsOfRelease : eventsOfAsset));
        ledger.start();
    }

    @AfterEach
    void stop() {
        ledger.stop(0);
    }

    @Test
    void aNewDeadLetterForTheAssetEndsTheWaitWithItsReason() {
        LedgerClient client = client();
        Set<String> before = client.deadLetterIds(CHECKPOINT);
        eventsOfAsset = DEAD_LETTER;

        assertThatThrownBy(() -> client.awaitVerified(CHECKPOINT, 1, Duration.ofSeconds(30), before))
                .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exitCode()).isEqualTo(CliException.FAILED))
                .hasMessage("a service refused an event of " + CHECKPOINT + " (checkpoint.published on"
                        + " stowage.checkpoint.published.dlq): unreadable event: files[0].bytes is negative; it will not"
                        + " be carried out (ledger dead letter dlq:ev-1)");
    }

    @Test
    void aDeadLetterLeftFromAnEarlierPublishDoesNotEndTheWait() {
        eventsOfAsset = DEAD_LETTER;
        LedgerClient client = client();
        Set<String> before = client.deadLetterIds(CHECKPOINT);
        assertThat(before).containsExactly("dlq:ev-1");

        assertThatThrownBy(() -> client.awaitVerified(CHECKPOINT, 1, Duration.ofSeconds(4), before))
                .hasMessageStartingWith("timed out after 4 s waiting for the ledger to record " + CHECKPOINT);
    }

    @Test
    void aDeadLetteredReleaseRequestEndsTheReleaseWait() {
        eventsOfRelease = DEAD_LETTER.replace("checkpoint.published", "volume.release.requested");

        assertThatThrownBy(() -> client().awaitRelease("req-9", Duration.ofSeconds(30)))
                .hasMessageStartingWith("a service refused an event of release/req-9 (volume.release.requested on"
                        + " stowage.volume.release.requested.dlq): ");
    }

    private LedgerClient client() {
        return new LedgerClient(URI.create("http://127.0.0.1:" + ledger.getAddress().getPort()));
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }
}
