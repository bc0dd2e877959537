package io.stowage.ledger.it;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;
import io.stowage.ledger.domain.ChainReport;
import io.stowage.stack.EmbeddedStack;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Publishes events (one of them twice) to the real broker, checks their seq and links in PostgreSQL and that
 * {@code GET /api/audit/chain} verifies the chain; then edits one stored payload with plain SQL and expects the
 * endpoint to name exactly that row as the first broken link, and the chain to verify again once it is restored.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class EventChainTest {
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final String assetId = "dataset/chain-" + run + "/r1";

    @Test
    void chainVerifiesAndNamesTheRowEditedBehindTheLedgersBack() throws Exception {
        List<StowageEvent> events = events(6);
        try (TestProducer producer = new TestProducer(bootstrapServers)) {
            for (StowageEvent event : events) {
                producer.send(event);
            }
            producer.send(events.get(2));
        }
        for (StowageEvent event : events) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> given().get("/api/events/" + event.meta().eventId()).statusCode() == 200);
        }

        StackEndpoints stack = EmbeddedStack.shared();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword())) {
            long rows = single(db, "select count(*) from ledger_event where asset_id = ?", assetId);
            assertThat(rows).as("the redelivered event added no row").isEqualTo(6);
            assertThat(single(db, "select count(distinct seq) from ledger_event where asset_id = ?", assetId)).isEqualTo(6);
            assertThat(single(db, "select count(*) from ledger_event where asset_id = ? and chain_hash ~ '^[0-9a-f]{64}$'",
                    assetId)).isEqualTo(6);
            long total = single(db, "select count(*) from ledger_event where seq between 1 and (select max(seq) from ledger_event)", null);
            assertThat(single(db, "select max(seq) from ledger_event", null)).as("seq 1..N without gaps").isEqualTo(total);
            assertThat(single(db, "select seq from ledger_chain_head", null)).isEqualTo(total);

            ChainReport intact = chain();
            assertThat(intact.ok()).isTrue();
            assertThat(intact.rows()).isGreaterThanOrEqualTo(total);
            assertThat(intact.firstBrokenSeq()).isNull();

            String victim = events.get(3).meta().eventId();
            long victimSeq = single(db, "select seq from ledger_event where event_id = ?", victim);
            String original = text(db, "select payload from ledger_event where event_id = ?", victim);
            assertThat(update(db, "update ledger_event set payload = replace(payload, '\"bytes\":4096', '\"bytes\":4097') where event_id = ?",
                    victim)).isEqualTo(1);
            try {
                ChainReport broken = chain();
                assertThat(broken.ok()).isFalse();
                assertThat(broken.firstBrokenSeq()).isEqualTo(victimSeq);
                assertThat(broken.firstBrokenEventId()).isEqualTo(victim);
                assertThat(broken.reason()).contains("the row was changed");
            } finally {
                try (PreparedStatement restore = db.prepareStatement("update ledger_event set payload = ? where event_id = ?")) {
                    restore.setString(1, original);
                    restore.setString(2, victim);
                    restore.executeUpdate();
                }
            }
            assertThat(chain().ok()).as("restored payload verifies again").isTrue();
        }
    }

    private static ChainReport chain() {
        return given().get("/api/audit/chain").then().statusCode(200).extract().as(ChainReport.class);
    }

    private List<StowageEvent> events(int count) {
        List<StowageEvent> events = new ArrayList<>();
        Instant t0 = Instant.now();
        String sha = "4".repeat(64);
        for (int i = 0; i < count; i++) {
            EventMeta meta = new EventMeta(UUID.randomUUID().toString(), 1, t0.plusMillis(i), assetId, null);
            events.add(i % 2 == 0
                    ? ShardBuilt.of(meta, "chain-" + run, "r1", i, "/data/chain-" + run, "/staging/" + run + "/" + i + ".tar.zst",
                    4096, sha, "/staging/" + run + "/" + i + ".members.jsonl", 100, sha, 2, 8000)
                    : ObjectUploaded.of(meta, assetId, "primary", "stowage-primary", "datasets/chain-" + run + "/r1/shards/" + i,
                    ObjectKind.SHARD, 4096, sha, "etag-" + i, "/staging/" + run + "/" + i + ".tar.zst", false));
        }
        return events;
    }

    private static long single(Connection db, String sql, String parameter) throws SQLException {
        try (PreparedStatement statement = db.prepareStatement(sql)) {
            if (parameter != null) {
                statement.setString(1, parameter);
            }
            try (ResultSet rows = statement.executeQuery()) {
                assertThat(rows.next()).isTrue();
                return rows.getLong(1);
            }
        }
    }

    private static String text(Connection db, String sql, String parameter) throws SQLException {
        try (PreparedStatement statement = db.prepareStatement(sql)) {
            statement.setString(1, parameter);
            try (ResultSet rows = statement.executeQuery()) {
                assertThat(rows.next()).isTrue();
                return rows.getString(1);
            }
        }
    }

    private static int update(Connection db, String sql, String parameter) throws SQLException {
        try (PreparedStatement statement = db.prepareStatement(sql)) {
            statement.setString(1, parameter);
            return statement.executeUpdate();
        }
    }
}
