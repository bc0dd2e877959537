package io.stowage.verifier.ledger;

import com.fasterxml.jackson.core.type.TypeReference;
import io.stowage.events.EventCodec;
import io.stowage.events.ledger.ScrubCandidate;
import io.stowage.verifier.storage.VerifierSettings;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Where the rolling scrub learns what to re-read: asks the ledger's {@code GET /api/coverage/due} for the objects
 * re-read least recently (every store) and produces them as {@link ScrubCandidate}s, in the ledger's scrub order.
 */
@ApplicationScoped
public class LedgerScrubQueue {
    private static final TypeReference<List<ScrubCandidate>> CANDIDATES = new TypeReference<>() {
    };
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;

    LedgerScrubQueue(VerifierSettings settings) {
        this.base = URI.create(settings.scrub().ledgerUrl());
    }

    /**
     * @param at    objects uploaded after this instant are left out
     * @param limit how many at most, 1–1000
     * @return the objects in scrub order (never re-read first, then least recently re-read)
     * @throws LedgerUnavailableException when the ledger cannot be reached or does not answer 200 with a list
     */
    public List<ScrubCandidate> due(Instant at, int limit) {
        URI uri = base.resolve("/api/coverage/due?limit=" + limit + "&at="
                + URLEncoder.encode(at.toString(), StandardCharsets.UTF_8));
        try {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new LedgerUnavailableException("GET " + uri + " answered " + response.statusCode(), null);
            }
            return EventCodec.mapper().readValue(response.body(), CANDIDATES);
        } catch (IOException e) {
            throw new LedgerUnavailableException("GET " + uri + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LedgerUnavailableException("GET " + uri + ": interrupted", e);
        }
    }
}
