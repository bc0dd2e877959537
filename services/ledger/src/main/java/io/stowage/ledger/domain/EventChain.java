package io.stowage.ledger.domain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;

import java.nio.charset.StandardCharsets;

/**
 * The hash chain over the ledger's rows: consumes a row (its sequence number and {@link StoredEvent}) with the
 * previous link's hash and produces the row's link, {@code hex(SHA-256(previous + "\n" + canonical JSON))}.
 * The first row's previous link is {@link #GENESIS} (64 zeros).
 * <p>
 * The canonical JSON is one object with every key sorted (Java {@link String} order, at every depth), no
 * whitespace, nulls written, UTF-8: {@code assetId, causationId, correlationId, deadLetter, eventId,
 * kafkaOffset, kafkaPartition, payloadJson, payloadText, reason, seq, topic, type}. {@code payloadJson} is
 * the stored payload parsed (it must be one JSON object or array, no trailing tokens, no duplicate keys;
 * decimals kept exact) and re-serialised with sorted keys; a payload that is anything else (a dead letter's
 * garbage) goes verbatim into {@code payloadText}. The times are not chained: an event's time is inside its
 * payload, and {@code recorded_at} is the ledger's own clock.
 */
public final class EventChain {
    /** The link before the first row: 64 zeros. */
    public static final String GENESIS = "0".repeat(64);

    private static final ObjectMapper MAPPER = EventCodec.mapper().copy()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature())
            .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false)
            // every object's properties written in String order (a TreeMap per object, at every depth)
            .configure(JsonNodeFeature.WRITE_PROPERTIES_SORTED, true);

    private EventChain() {
    }

    /** @return the 64 lowercase hex digits of the link of row {@code seq} holding {@code event} after {@code previous} */
    public static String link(String previous, long seq, StoredEvent event) {
        return Sha256.of((previous + "\n" + canonicalJson(seq, event)).getBytes(StandardCharsets.UTF_8));
    }

    /** @return the canonical JSON of row {@code seq} holding {@code event} (see the class comment) */
    public static String canonicalJson(long seq, StoredEvent event) {
        JsonNode payload = parsed(event.payload());
        ObjectNode row = MAPPER.createObjectNode()
                .put("assetId", event.assetId())
                .put("causationId", event.causationId())
                .put("correlationId", event.correlationId())
                .put("deadLetter", event.deadLetter())
                .put("eventId", event.eventId())
                .put("kafkaOffset", event.offset())
                .put("kafkaPartition", event.partition());
        row.set("payloadJson", payload);
        row.put("payloadText", payload == null ? event.payload() : null)
                .put("reason", event.reason())
                .put("seq", seq)
                .put("topic", event.topic())
                .put("type", event.type());
        try {
            return MAPPER.writeValueAsString(row);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the canonical JSON of " + event.eventId(), e);
        }
    }

    // the payload as a JSON tree, or null when it is absent or not one JSON object or array
    private static JsonNode parsed(String payload) {
        if (payload == null) {
            return null;
        }
        try {
            JsonNode tree = MAPPER.readTree(payload);
            return tree != null && tree.isContainerNode() ? tree : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
