package io.stowage.cli.evidence;

import com.fasterxml.jackson.databind.JavaType;
import io.stowage.cli.CliException;
import io.stowage.cli.client.HttpJson;
import io.stowage.events.EventCodec;
import io.stowage.events.ledger.AssetEvidence;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads what an export needs from the ledger's HTTP query API, and nothing else: {@code GET /api/assets/index}
 * (every asset, paged), {@code GET /api/assets?id=} (one asset's evidence) and {@code GET /api/events?assetId=}
 * (the times of its events). Every call is a GET, which a reader token may make.
 */
public final class EvidenceLedger {
    private static final int PAGE = 1000;

    /** One line of {@code GET /api/assets/index}. */
    public record IndexEntry(String assetId, String kind) {
    }

    /** One page of {@code GET /api/assets/index}; {@code next} is the next page's {@code after}, null at the end. */
    record IndexPage(List<IndexEntry> assets, String next) {
    }

    /** One line of {@code GET /api/events?assetId=}. */
    record EventTime(String eventId, Instant time) {
    }

    private final URI base;
    private final HttpJson http;

    /**
     * @param base the ledger's base URL
     * @param http JSON over HTTP with the token the export presents (a reader's is enough)
     */
    public EvidenceLedger(URI base, HttpJson http) {
        this.base = base;
        this.http = http;
    }

    /**
     * @return every asset the ledger knows, ids ascending
     * @throws CliException (exit 1) when the ledger cannot answer, or repeats a page; exit 4 when it refuses the token
     */
    public List<IndexEntry> index() {
        List<IndexEntry> all = new ArrayList<>();
        String after = "";
        do {
            IndexPage page = http.get(base.resolve("/api/assets/index?limit=" + PAGE + "&after=" + encode(after)), IndexPage.class)
                    .orElseThrow(() -> new CliException(CliException.FAILED, "this ledger has no /api/assets/index"));
            all.addAll(page.assets());
            if (after.equals(page.next())) {
                throw new CliException(CliException.FAILED, "the ledger's /api/assets/index repeats the page after " + after);
            }
            after = page.next();
        } while (after != null);
        return all;
    }

    /** @return the asset's evidence, empty when the ledger does not know it (any more) */
    public Optional<AssetEvidence> asset(String assetId) {
        return http.get(base.resolve("/api/assets?id=" + encode(assetId)), AssetEvidence.class);
    }

    /** @return event id to event time of every event the ledger holds for the asset (its Kafka key) */
    public Map<String, Instant> eventTimes(String assetId) {
        JavaType type = EventCodec.mapper().getTypeFactory().constructCollectionType(List.class, EventTime.class);
        Optional<List<EventTime>> events = http.get(base.resolve("/api/events?assetId=" + encode(assetId)), type);
        Map<String, Instant> times = new HashMap<>();
        events.orElse(List.of()).forEach(e -> times.put(e.eventId(), e.time()));
        return times;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
