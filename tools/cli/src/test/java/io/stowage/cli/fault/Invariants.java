package io.stowage.cli.fault;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.Sha256;
import io.stowage.events.Topics;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.stack.StackEndpoints;

import java.io.InputStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What must hold after every fault, read from the ledger's API, its PostgreSQL tables and the primary store: every
 * object of the asset GETs with its bytes and SHA-256, the hash chain verifies, no event is stored twice under two ids
 * for one upload, and each release request has exactly one decision and each approved release exactly one outcome.
 */
final class Invariants {
    private final FaultHarness harness;

    Invariants(FaultHarness harness) {
        this.harness = harness;
    }

    Optional<AssetEvidence> asset(String id) {
        return new HttpJson().get(harness.platform.session().serviceUrl("ledger").resolve("/api/assets?id=" + id),
                AssetEvidence.class);
    }

    /** @return true when every object of {@code id} has HEAD OK and at least one shard or checkpoint file was re-read in full with OK */
    boolean verified(String id, int objects) {
        return asset(id).map(a -> a.objects().size() == objects
                && a.objects().stream().allMatch(o -> "OK".equals(String.valueOf(o.headResult())))
                && a.objects().stream().anyMatch(o -> (o.kind().name().equals("SHARD")
                || o.kind().name().equals("CHECKPOINT_FILE")) && "OK".equals(String.valueOf(o.fullReadResult()))))
                .orElse(false);
    }

    /** Every object the ledger holds for {@code id} GETs from its store (primary or replica) with the recorded bytes and SHA-256. */
    void everyObjectGetsAndHashesRight(String id) throws Exception {
        AssetEvidence asset = asset(id).orElseThrow();
        assertThat(asset.objects()).isNotEmpty();
        try (PrimaryStore primary = new PrimaryStore(stack()); PrimaryStore replica = new PrimaryStore(stack(), true)) {
            for (ObjectEvidence o : asset.objects()) {
                PrimaryStore store = o.store().equals("replica") ? replica : primary;
                byte[] bytes;
                try (InputStream in = store.open(o.key())) {
                    bytes = in.readAllBytes();
                }
                assertThat(bytes.length).as(o.key()).isEqualTo(o.bytes());
                assertThat(Sha256.of(bytes)).as(o.key()).isEqualTo(o.sha256());
            }
        }
    }

    /** The ledger's hash chain verifies over every row, and the chain head is the newest row. */
    void chainIntact() {
        JsonNode chain = new HttpJson().get(harness.platform.session().serviceUrl("ledger").resolve("/api/audit/chain"),
                JsonNode.class).orElseThrow();
        assertThat(chain.path("ok").asBoolean()).as(chain.toString()).isTrue();
        assertThat(chain.path("rows").asLong()).isEqualTo(count("select count(*) from ledger_event"));
    }

    /**
     * Exactly one decision ({@code gate.passed} or {@code gate.denied}) of release request {@code requestId} (ledger
     * asset {@code release/<requestId>}); when it passed and was no dry run, exactly one outcome
     * ({@code volume.released} or {@code volume.release.failed}), caused by that decision.
     *
     * @return the decision's topic
     */
    String oneDecisionAndOneOutcome(String requestId, boolean dryRun) {
        String release = io.stowage.events.AssetIds.release(requestId);
        List<String[]> decisions = rows("select event_id, topic from ledger_event where asset_id = ? and topic in ('"
                + Topics.GATE_PASSED + "','" + Topics.GATE_DENIED + "')", release);
        assertThat(decisions).as("decisions of request " + requestId).hasSize(1);
        String topic = decisions.get(0)[1];
        if (topic.equals(Topics.GATE_PASSED) && !dryRun) {
            List<String[]> outcomes = rows("select causation_id, topic from ledger_event where asset_id = ? and topic in ('"
                    + Topics.VOLUME_RELEASED + "','" + Topics.VOLUME_RELEASE_FAILED + "')", release);
            assertThat(outcomes).as("outcomes of request " + requestId).hasSize(1);
            assertThat(outcomes.get(0)[0]).as("the outcome's cause").isEqualTo(decisions.get(0)[0]);
        }
        return topic;
    }

    /**
     * Exactly one record on {@code gate.passed} and {@code gate.denied} together for release request
     * {@code requestId}, counted on the broker (the ledger, idempotent on event id, would store a second record with the
     * same id once): a redelivered request sends no second decision.
     */
    void oneDecisionRecordOnTheBroker(String requestId) {
        String release = io.stowage.events.AssetIds.release(requestId);
        io.stowage.stack.KafkaProbe kafka = new io.stowage.stack.KafkaProbe(harness.platform.kafkaSuperUser(),
                java.time.Duration.ofSeconds(30));
        long records = 0;
        for (String topic : List.of(Topics.GATE_PASSED, Topics.GATE_DENIED)) {
            records += kafka.keysUpToEnd(topic).stream().filter(release::equals).count();
        }
        assertThat(records).as("decision records of request " + requestId + " on the broker").isEqualTo(1);
    }

    /**
     * No object of asset {@code id} was uploaded twice: at most one {@code object.uploaded} event per store and key
     * that is not {@code skipped} (a redelivery after a crash finds the object stored and says so with
     * {@code skipped: true}, which is allowed).
     *
     * @return the keys with more than one {@code object.uploaded} event, each with its events' {@code skipped} flags
     */
    List<String> noObjectUploadedTwice(String id) {
        List<String[]> twice = rows("select payload::json->>'store', payload::json->>'key', count(*),"
                + " sum(case when (payload::json->>'skipped')::boolean then 0 else 1 end),"
                + " string_agg(payload::json->>'skipped', ',') from ledger_event where topic = '" + Topics.OBJECT_UPLOADED
                + "' and asset_id = ? group by 1, 2 having count(*) > 1", id);
        List<String> out = new ArrayList<>();
        for (String[] row : twice) {
            assertThat(Long.parseLong(row[3])).as("uploads of " + row[0] + ":" + row[1] + " not skipped").isLessThanOrEqualTo(1);
            out.add(row[0] + ":" + row[1] + " skipped=[" + row[4] + "]");
        }
        return out;
    }

    /** @return how many {@code object.uploaded} events the ledger holds for asset {@code id} (printed per case) */
    long uploadEvents(String id) {
        return count("select count(*) from ledger_event where topic = '" + Topics.OBJECT_UPLOADED + "' and asset_id = ?", id);
    }

    private StackEndpoints stack() {
        return harness.platform.session().stack();
    }

    long count(String sql, String... args) {
        return Long.parseLong(rows(sql, args).get(0)[0]);
    }

    private List<String[]> rows(String sql, String... args) {
        StackEndpoints stack = stack();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             PreparedStatement statement = db.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                statement.setString(i + 1, args[i]);
            }
            List<String[]> out = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                int columns = rows.getMetaData().getColumnCount();
                while (rows.next()) {
                    String[] row = new String[columns];
                    for (int c = 0; c < columns; c++) {
                        row[c] = rows.getString(c + 1);
                    }
                    out.add(row);
                }
            }
            return out;
        } catch (java.sql.SQLException e) {
            throw new AssertionError("cannot query the ledger's database: " + e.getMessage(), e);
        }
    }
}
