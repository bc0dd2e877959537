package io.stowage.ledger.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.ArchivePublished;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.Provenance;
import io.stowage.events.StowageEvent;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.stack.EmbeddedStack;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code GET /api/archives/export} against the real broker and PostgreSQL: the archive of a run holds exactly the
 * events of its steps (not those of run {@code <R>2}, not a scrub result of another asset sharing the scrub's
 * correlation id, not the run's own archive events) in seq order, each line with the link PostgreSQL stores; the same
 * rows give the same text; a row edited behind the ledger's back is refused with 409; another asset shape with 400.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class ArchiveExportTest {
    static final String SHA = "5".repeat(64);
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private final String experiment = "arch-" + UUID.randomUUID().toString().substring(0, 8);
    private final Instant t0 = Instant.now();
    private int tick;

    @Test
    void theArchiveOfARunHoldsExactlyItsStepsEventsInChainOrderAndRefusesAnEditedRow() throws Exception {
        String scrub = "scrub-" + experiment;
        List<StowageEvent> mine = new ArrayList<>();
        List<StowageEvent> others = new ArrayList<>();
        for (long step : new long[]{10, 20}) {
            CheckpointPublished published = published("r", step);
            mine.add(published);
            mine.add(uploaded(published.assetId(), published.assetId(), "k-" + step));
        }
        mine.add(verified("checkpoint/" + experiment + "/r/000000000010", scrub, "k-10"));
        others.add(published("r2", 10));
        others.add(verified("dataset/" + experiment + "/r1", scrub, "other"));
        others.add(ArchivePublished.of(meta("archive/run/" + experiment + "/r"), "run/" + experiment + "/r",
                "/staging/archives/x.jsonl.zst", 10, SHA, 5, 1, 2, SHA));
        try (TestProducer producer = new TestProducer(bootstrapServers)) {
            for (int i = 0; i < mine.size(); i++) {
                producer.send(mine.get(i));
                if (i < others.size()) {
                    producer.send(others.get(i));
                }
            }
        }
        for (StowageEvent event : concat(mine, others)) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> given().get("/api/events/" + event.meta().eventId()).statusCode() == 200);
        }

        String text = export("run/" + experiment + "/r", 200);
        String[] lines = text.split("\n");
        StackEndpoints stack = EmbeddedStack.shared();
        List<String> expectedIds = new ArrayList<>();
        List<String> expectedLinks = new ArrayList<>();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             PreparedStatement q = db.prepareStatement("select event_id, chain_hash from ledger_event where event_id = any(?) order by seq")) {
            q.setArray(1, db.createArrayOf("text", mine.stream().map(e -> e.meta().eventId()).toArray()));
            try (ResultSet rows = q.executeQuery()) {
                while (rows.next()) {
                    expectedIds.add(rows.getString(1));
                    expectedLinks.add(rows.getString(2));
                }
            }
        }
        assertThat(expectedIds).hasSize(mine.size());
        JsonNode header = EventCodec.mapper().readTree(lines[0]);
        assertThat(header.get("events").asInt()).isEqualTo(mine.size());
        assertThat(header.get("lastChainHash").asText()).isEqualTo(expectedLinks.get(expectedLinks.size() - 1));
        List<String> ids = new ArrayList<>();
        List<String> links = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            JsonNode line = EventCodec.mapper().readTree(lines[i]);
            ids.add(line.get("row").get("eventId").asText());
            links.add(line.get("chainHash").asText());
        }
        assertThat(ids).containsExactlyElementsOf(expectedIds);
        assertThat(links).containsExactlyElementsOf(expectedLinks);
        assertThat(export("run/" + experiment + "/r", 200)).isEqualTo(text);

        String victim = mine.get(1).meta().eventId();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword())) {
            String original;
            try (PreparedStatement q = db.prepareStatement("select payload from ledger_event where event_id = ?")) {
                q.setString(1, victim);
                try (ResultSet r = q.executeQuery()) {
                    r.next();
                    original = r.getString(1);
                }
            }
            try (PreparedStatement edit = db.prepareStatement("update ledger_event set payload = ? where event_id = ?")) {
                edit.setString(1, original.replace("\"bytes\":4096", "\"bytes\":4097"));
                edit.setString(2, victim);
                assertThat(edit.executeUpdate()).isEqualTo(1);
                try {
                    assertThat(export("run/" + experiment + "/r", 409)).contains(victim).contains("chain link");
                } finally {
                    edit.setString(1, original);
                    edit.executeUpdate();
                }
            }
        }
        assertThat(export("run/" + experiment + "/r", 200)).isEqualTo(text);
        assertThat(export("checkpoint/" + experiment + "/r", 400)).contains("run/<experiment>/<run>");
    }

    private static String export(String asset, int status) {
        return given().queryParam("asset", asset).get("/api/archives/export").then().statusCode(status)
                .extract().asString();
    }

    private static List<StowageEvent> concat(List<StowageEvent> a, List<StowageEvent> b) {
        List<StowageEvent> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private EventMeta meta(String correlationId) {
        return new EventMeta(UUID.randomUUID().toString(), 1, t0.plusMillis(tick++), correlationId, null);
    }

    private CheckpointPublished published(String run, long step) {
        String asset = "checkpoint/" + experiment + "/" + run + "/" + String.format("%012d", step);
        return CheckpointPublished.of(meta(asset), experiment, run, step, "/hot/" + experiment + "/" + step,
                "/staging/" + experiment + "/" + step + ".json", SHA, 1, 4096, false, List.of(),
                new Provenance("abc123", SHA, SHA));
    }

    private ObjectUploaded uploaded(String asset, String correlation, String key) {
        return ObjectUploaded.of(meta(correlation), asset, "primary", "stowage-primary", "checkpoints/" + experiment + "/" + key,
                ObjectKind.CHECKPOINT_FILE, 4096, SHA, "etag", "/hot/" + experiment + "/" + key, false);
    }

    private ObjectVerified verified(String asset, String correlation, String key) {
        return ObjectVerified.of(meta(correlation), asset, "primary", "stowage-primary", "checkpoints/" + experiment + "/" + key,
                ObjectKind.CHECKPOINT_FILE, VerifyMethod.FULL_READ, VerifyResult.OK, 4096, SHA, 4096, SHA, null);
    }
}
