package io.stowage.console.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stowage.console.domain.Condition;
import io.stowage.console.domain.Failure;
import io.stowage.console.domain.Release;
import io.stowage.console.domain.VolumeDirectory;
import io.stowage.events.EventCodec;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.ReleaseOutcome;
import io.stowage.events.ledger.ReleasePlan;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Turns the services' JSON answers into the console's records: releases, directories, verifications, fields. */
final class Answers {
    private static final ObjectMapper JSON = EventCodec.mapper();

    private Answers() {
    }

    /** @param outcome the ledger's {@code ReleaseOutcome}; @return it as a release, time and asker unknown */
    static Release release(ReleaseOutcome outcome, Instant requestedAt, String requestedBy) {
        ReleasePlan plan = outcome.plan();
        List<Condition> conditions = plan == null ? List.of() : plan.conditions().stream()
                .map(c -> new Condition(c.condition(), c.name(), c.passed(), c.reason(), c.evidence())).toList();
        List<Failure> failures = outcome.failed() == null ? List.of() : outcome.failed().stream()
                .map(f -> new Failure(f.condition(), f.code(), f.detail())).toList();
        return new Release(outcome.requestId(), outcome.path(), outcome.dryRun(), requestedAt, requestedBy,
                outcome.gate(), outcome.released(), outcome.failureReason(), conditions, failures,
                plan == null ? 0 : plan.fileCount(), plan == null ? 0 : plan.totalBytes());
    }

    /** @param listing the ledger's {@code GET /api/releases} answer; @return its releases, newest first */
    static List<Release> releases(JsonNode listing) {
        List<Release> out = new ArrayList<>();
        for (JsonNode row : iterable(listing)) {
            try {
                ReleaseOutcome outcome = JSON.treeToValue(row.get("outcome"), ReleaseOutcome.class);
                Instant at = row.hasNonNull("requestedAt") ? Instant.parse(row.get("requestedAt").asText()) : null;
                out.add(release(outcome, at, text(row, "requestedBy")));
            } catch (com.fasterxml.jackson.core.JsonProcessingException | java.time.format.DateTimeParseException e) {
                // a row this console cannot read is left out rather than shown wrong
            }
        }
        return out;
    }

    /** @param answer the gatekeeper's {@code GET /api/volume-directories}; @return its directories */
    static List<VolumeDirectory> directories(JsonNode answer) {
        List<VolumeDirectory> out = new ArrayList<>();
        for (JsonNode d : iterable(answer)) {
            out.add(new VolumeDirectory(text(d, "path"), text(d, "root"), d.path("files").asLong(), d.path("bytes").asLong()));
        }
        return out;
    }

    /** @param payloads the ledger's {@code GET /api/payloads?topic=object.verified}; @return the verifications, oldest first */
    static List<Views.Verification> verifications(JsonNode payloads) {
        List<Views.Verification> out = new ArrayList<>();
        for (JsonNode e : iterable(payloads)) {
            JsonNode p = e.path("payload");
            out.add(new Views.Verification(text(e, "eventTime"), text(p, "store"), text(p, "key"), text(p, "method"),
                    text(p, "result"), text(p, "detail")));
        }
        return out;
    }

    /** @return the newest verification time of each method for a key in a store, from the history, or a dash */
    static Views.Copy copy(ObjectEvidence o, List<Views.Verification> history) {
        return new Views.Copy(o.store(), o.bucket(), o.key(), name(o.headResult()), name(o.fullReadResult()),
                newest(history, o, "HEAD"), newest(history, o, "FULL_READ"));
    }

    private static String newest(List<Views.Verification> history, ObjectEvidence o, String method) {
        String found = "—";
        for (Views.Verification v : history) {
            if (o.key().equals(v.key()) && o.store().equals(v.store()) && method.equals(v.method())) {
                found = v.time();
            }
        }
        return found;
    }

    /** @return a record's non-null properties as name/value fields, in declaration order */
    static List<Views.Field> fields(Object value) {
        if (value == null) {
            return List.of();
        }
        List<Views.Field> out = new ArrayList<>();
        JsonNode tree = JSON.valueToTree(value);
        for (Iterator<Map.Entry<String, JsonNode>> it = tree.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!f.getValue().isNull()) {
                out.add(new Views.Field(f.getKey(), f.getValue().isTextual() ? f.getValue().asText() : f.getValue().toString()));
            }
        }
        return out;
    }

    static Iterable<JsonNode> iterable(JsonNode node) {
        return node == null || !node.isArray() ? List.of() : node::elements;
    }

    static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static String name(Enum<?> e) {
        return e == null ? "—" : e.name();
    }
}
