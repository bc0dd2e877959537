package io.stowage.console.domain;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * One evidence event id of a gate condition with the console's address of that event ({@code /events/ID}, the id
 * URL-encoded), which shows what the ledger stored under it.
 */
public record EvidenceLink(String id, String href) {
    /** @param eventId a ledger event id; @return it with its event page's address */
    public static EvidenceLink of(String eventId) {
        return new EvidenceLink(eventId, "/events/" + URLEncoder.encode(eventId, StandardCharsets.UTF_8).replace("+", "%20"));
    }
}
