package io.stowage.verifier.ledgerclient;

import com.fasterxml.jackson.core.type.TypeReference;
import io.stowage.auth.ClientToken;
import io.stowage.events.EventCodec;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.ScrubCandidate;
import io.stowage.verifier.VerifierSettings;
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
 * re-read least recently (every store) and produces them as {@link ScrubCandidate}s, in the ledger's scrub order. Also
 * where a presigned link learns what the ledger holds of its key ({@code GET /api/objects/copies}).
 */
@ApplicationScoped
public class LedgerScrubQueue {
    private static final TypeReference<List<ScrubCandidate>> CANDIDATES = new TypeReference<>() {
    };
    private static final TypeReference<List<ObjectEvidence>> COPIES = new TypeReference<>() {
    };
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;
    private final ClientToken token;

    /** @param token the reader token presented to the ledger ({@code stowage.auth.client-token}; without one the ledger answers 401) */
    LedgerScrubQueue(VerifierSettings settings, ClientToken token) {
        this.base = URI.create(settings.scrub().ledgerUrl());
        this.token = token;
    }

    /**
     * @param at    objects uploaded after this instant are left out
     * @param limit how many at most, 1–1000
     * @return the objects in scrub order (never re-read first, then least recently re-read)
     * @throws LedgerUnavailableException when the ledger cannot be reached or does not answer 200 with a list
     */
    public List<ScrubCandidate> due(Instant at, int limit) {
        return get(base.resolve("/api/coverage/due?limit=" + limit + "&at="
                + URLEncoder.encode(at.toString(), StandardCharsets.UTF_8)));
    }

    /**
     * @param assetId the asset whose objects to re-read
     * @param at      objects uploaded after this instant are left out
     * @param limit   how many at most, 1–1000
     * @return the asset's objects with a recorded SHA-256 (every store), in scrub order; empty when the ledger holds
     *         none of it
     * @throws LedgerUnavailableException when the ledger cannot be reached or does not answer 200 with a list
     */
    public List<ScrubCandidate> ofAsset(String assetId, Instant at, int limit) {
        return get(base.resolve("/api/coverage/due?limit=" + limit + "&at="
                + URLEncoder.encode(at.toString(), StandardCharsets.UTF_8) + "&asset="
                + URLEncoder.encode(assetId, StandardCharsets.UTF_8)));
    }

    /**
     * @param key an object key
     * @return every copy of {@code key} the ledger holds (one per store and bucket) with its newest results; empty when
     *         none
     * @throws LedgerUnavailableException when the ledger cannot be reached or does not answer 200 with a list
     */
    public List<ObjectEvidence> copies(String key) {
        return get(base.resolve("/api/objects/copies?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8)), COPIES);
    }

    private List<ScrubCandidate> get(URI uri) {
        return get(uri, CANDIDATES);
    }

    private <T> T get(URI uri, TypeReference<T> type) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .header("Accept", "application/json").GET();
            token.authorizationHeader().ifPresent(value -> request.header("Authorization", value));
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new LedgerUnavailableException("GET " + uri + " answered " + response.statusCode(), null);
            }
            return EventCodec.mapper().readValue(response.body(), type);
        } catch (IOException e) {
            throw new LedgerUnavailableException("GET " + uri + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LedgerUnavailableException("GET " + uri + ": interrupted", e);
        }
    }
}
