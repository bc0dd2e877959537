package io.stowage.ledger.domain;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.events.Topics;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * One thing an operator should look at, taken from a stored ledger event: a provider alert (TTL or cap reached, a
 * release blocked), a release that failed, an upload that failed, a retention step refused, a verification whose
 * result is not OK, or a dead letter. The words come from the event itself; nothing is counted or judged here.
 *
 * @param eventId the ledger event it comes from ({@code GET /api/events/{id}})
 * @param time    the event's time, null when the event carried none
 * @param topic   the topic it was recorded from (the original topic for a dead letter)
 * @param kind    short code: the provider alert's code ({@code ttl-reached}, {@code release-blocked}, …),
 *                {@code release-failed}, {@code upload-failed}, {@code retention-refused},
 *                {@code verify-<RESULT>} (e.g. {@code verify-MISMATCH}) or {@code dead-letter}
 * @param subject what it is about: a resource ({@code volume/<id>}), a path, a store and key, a run
 * @param detail  the event's own reason or detail, one line
 */
public record Alert(String eventId, Instant time, String topic, String kind, String subject, String detail) {
    /** The topics whose every event is an alert ({@code object.verified} counts only when its result is not OK). */
    public static final List<String> TOPICS = List.of(Topics.PROVIDER_ALERT, Topics.VOLUME_RELEASE_FAILED,
            Topics.OBJECT_UPLOAD_FAILED, Topics.RETENTION_REFUSED, Topics.OBJECT_VERIFIED);
    private static final Set<String> ALWAYS = Set.of(Topics.PROVIDER_ALERT, Topics.VOLUME_RELEASE_FAILED,
            Topics.OBJECT_UPLOAD_FAILED, Topics.RETENTION_REFUSED);

    /**
     * @param deadLetter true for a record stored from a {@code .dlq} topic
     * @param reason     the dead-letter reason, for a dead letter
     * @param payload    the event's JSON, null when it did not decode
     * @return the alert this stored event stands for, or null when it is none (e.g. an OK verification)
     */
    public static Alert of(String eventId, Instant time, String topic, boolean deadLetter, String reason, JsonNode payload) {
        if (deadLetter) {
            return new Alert(eventId, time, topic, "dead-letter", topic, line(reason));
        }
        if (payload == null || (!ALWAYS.contains(topic) && !Topics.OBJECT_VERIFIED.equals(topic))) {
            return null;
        }
        return switch (topic) {
            case Topics.PROVIDER_ALERT -> new Alert(eventId, time, topic, text(payload, "code"),
                    text(payload, "resourceKind") + "/" + text(payload, "resourceId"), line(text(payload, "detail")));
            case Topics.VOLUME_RELEASE_FAILED -> new Alert(eventId, time, topic, "release-failed", text(payload, "path"),
                    line(text(payload, "reason")));
            case Topics.OBJECT_UPLOAD_FAILED -> new Alert(eventId, time, topic, "upload-failed",
                    text(payload, "store") + ": " + text(payload, "key"), line(text(payload, "reason")));
            case Topics.RETENTION_REFUSED -> new Alert(eventId, time, topic, "retention-refused",
                    "run " + text(payload, "experiment") + "/" + text(payload, "run"), line(refusals(payload)));
            default -> verified(eventId, time, topic, payload);
        };
    }

    private static Alert verified(String eventId, Instant time, String topic, JsonNode payload) {
        String result = text(payload, "result");
        if ("OK".equals(result)) {
            return null;
        }
        String detail = text(payload, "method") + " " + result + (payload.hasNonNull("detail")
                ? ": " + payload.get("detail").asText() : "");
        return new Alert(eventId, time, topic, "verify-" + result, text(payload, "store") + ": " + text(payload, "key"),
                line(detail));
    }

    private static String refusals(JsonNode payload) {
        StringBuilder out = new StringBuilder();
        for (JsonNode r : payload.path("refusals")) {
            if (!out.isEmpty()) {
                out.append("; ");
            }
            out.append(r.hasNonNull("step") ? "step " + r.get("step").asText() + ": " : "").append(text(r, "reason"));
        }
        return out.toString();
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? "-" : value.asText();
    }

    // one line, at most 300 characters
    private static String line(String text) {
        if (text == null) {
            return "-";
        }
        String one = text.replaceAll("[\\r\\n]+", " ").strip();
        return one.length() > 300 ? one.substring(0, 297) + "..." : one;
    }
}
