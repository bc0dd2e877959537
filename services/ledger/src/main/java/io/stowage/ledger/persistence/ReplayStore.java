package io.stowage.ledger.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.agroal.api.AgroalDataSource;
import io.stowage.events.EventCodec;
import io.stowage.ledger.domain.AssetRecord;
import io.stowage.ledger.domain.CheckpointStepRecord;
import io.stowage.ledger.domain.ModelPromotionRecord;
import io.stowage.ledger.domain.ObjectRecord;
import io.stowage.ledger.domain.ProjectionDifference;
import io.stowage.ledger.domain.ProjectionFold;
import io.stowage.ledger.domain.ReleaseRecord;
import io.stowage.ledger.domain.UploadFailureRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.flywaydb.core.Flyway;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The replay side of {@code audit replay} in PostgreSQL (blocking JDBC): creates a fresh schema with the ledger's
 * own Flyway migrations (the same DDL as the live tables), writes a {@link ProjectionFold} into it in JDBC batches,
 * compares each projection table with the live one row by row (as JSON, generated ids left out) and drops it.
 */
@ApplicationScoped
public class ReplayStore {
    private static final Pattern SCHEMA = Pattern.compile("[a-z][a-z0-9_]{0,62}");
    private static final int BATCH = 1000;

    private final AgroalDataSource dataSource;
    private final Flyway flyway;

    @Inject
    public ReplayStore(AgroalDataSource dataSource, Flyway flyway) {
        this.dataSource = dataSource;
        this.flyway = flyway;
    }

    /** Creates {@code schema} and migrates it with the ledger's migrations; throws when it exists or the name is not plain. */
    public void create(String schema) {
        checked(schema);
        Flyway.configure().configuration(flyway.getConfiguration())
                .schemas(schema).defaultSchema(schema).createSchemas(true).load().migrate();
    }

    /** @return the live tables' schema (the connection's current schema, normally {@code public}) */
    public String liveSchema() throws SQLException {
        try (Connection db = dataSource.getConnection(); Statement s = db.createStatement();
             ResultSet r = s.executeQuery("select current_schema()")) {
            r.next();
            return r.getString(1);
        }
    }

    /** @return rows written per table; throws {@link SQLException} when a batch fails (nothing is committed then) */
    public Map<String, Long> write(String schema, ProjectionFold fold) throws SQLException {
        checked(schema);
        Map<String, Long> rows = new LinkedHashMap<>();
        try (Connection db = dataSource.getConnection()) {
            db.setAutoCommit(false);
            rows.put("ledger_asset", assets(db, schema, fold.assets()));
            rows.put("ledger_object", objects(db, schema, fold.objects()));
            rows.put("ledger_upload_failure", failures(db, schema, fold.uploadFailures()));
            rows.put("ledger_release", releases(db, schema, fold.releases()));
            rows.put("ledger_checkpoint_step", checkpointSteps(db, schema, fold.checkpointSteps()));
            rows.put("ledger_model_promotion", promotions(db, schema, fold.modelPromotions()));
            db.commit();
        }
        return rows;
    }

    /**
     * @param prefix only rows whose asset id (request id for releases) contains it; "" for all
     * @return every row that differs between the two schemas, by table then key
     */
    public List<ProjectionDifference> compare(String live, String replay, String prefix) throws SQLException {
        checked(live);
        checked(replay);
        List<ProjectionDifference> out = new ArrayList<>();
        try (Connection db = dataSource.getConnection()) {
            diff(db, out, "ledger_asset", "asset_id", "coalesce(l.asset_id, r.asset_id)", "l.asset_id = r.asset_id", live, replay, prefix);
            diff(db, out, "ledger_object", "asset_id",
                    "coalesce(l.store, r.store) || '/' || coalesce(l.bucket, r.bucket) || '/' || coalesce(l.object_key, r.object_key)",
                    "l.store = r.store and l.bucket = r.bucket and l.object_key = r.object_key", live, replay, prefix);
            diff(db, out, "ledger_upload_failure", "asset_id", "coalesce(l.event_id, r.event_id)", "l.event_id = r.event_id",
                    live, replay, prefix);
            diff(db, out, "ledger_release", null, "coalesce(l.request_id, r.request_id)", "l.request_id = r.request_id",
                    live, replay, prefix);
            diff(db, out, "ledger_checkpoint_step", "asset_id", "coalesce(l.asset_id, r.asset_id)", "l.asset_id = r.asset_id",
                    live, replay, prefix);
            diff(db, out, "ledger_model_promotion", "model_asset_id", "coalesce(l.model_asset_id, r.model_asset_id)",
                    "l.model_asset_id = r.model_asset_id", live, replay, prefix);
        }
        return out;
    }

    /** Drops {@code schema} with everything in it. */
    public void drop(String schema) throws SQLException {
        checked(schema);
        try (Connection db = dataSource.getConnection(); Statement s = db.createStatement()) {
            s.execute("drop schema if exists " + schema + " cascade");
        }
    }

    private static void diff(Connection db, List<ProjectionDifference> out, String table, String assetColumn, String key,
                             String join, String live, String replay, String prefix) throws SQLException {
        String asset = assetColumn == null ? "null::text" : "coalesce(l." + assetColumn + ", r." + assetColumn + ")";
        String scope = assetColumn == null ? key : asset;
        String sql = "select " + asset + ", " + key + ", (to_jsonb(l) - 'id')::text, (to_jsonb(r) - 'id')::text"
                + " from " + live + "." + table + " l full join " + replay + "." + table + " r on " + join
                + " where (to_jsonb(l) - 'id') is distinct from (to_jsonb(r) - 'id') and " + scope + " like ? escape '!'"
                + " order by 2";
        try (PreparedStatement s = db.prepareStatement(sql)) {
            s.setString(1, "%" + prefix.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%");
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    out.add(new ProjectionDifference(table, r.getString(1), r.getString(2), json(r.getString(3)), json(r.getString(4))));
                }
            }
        }
    }

    private static JsonNode json(String text) {
        try {
            return text == null ? null : EventCodec.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("PostgreSQL returned unreadable JSON", e);
        }
    }

    private static long assets(Connection db, String schema, Iterable<AssetRecord> rows) throws SQLException {
        String sql = "insert into " + schema + ".ledger_asset (asset_id, kind, local_root, sealed, manifest_path, manifest_sha256,"
                + " key_checkpoint, revision, license, source, code_commit, config_sha256, data_manifest_sha256, sealed_event_id)"
                + " values (?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
        return batch(db, sql, rows, (s, a) -> {
            s.setString(1, a.assetId());
            s.setString(2, a.kind());
            s.setString(3, a.localRoot());
            s.setBoolean(4, a.sealed());
            s.setString(5, a.manifestPath());
            s.setString(6, a.manifestSha256());
            s.setBoolean(7, a.keyCheckpoint());
            s.setString(8, a.revision());
            s.setString(9, a.license());
            s.setString(10, a.source());
            s.setString(11, a.codeCommit());
            s.setString(12, a.configSha256());
            s.setString(13, a.dataManifestSha256());
            s.setString(14, a.sealedEventId());
        });
    }

    private static long objects(Connection db, String schema, Iterable<ObjectRecord> rows) throws SQLException {
        String sql = "insert into " + schema + ".ledger_object (store, bucket, object_key, asset_id, kind, bytes, sha256, etag,"
                + " local_path, uploaded_at, head_result, head_verified_at, full_read_result, full_read_verified_at,"
                + " uploaded_event_id, head_event_id, full_read_event_id)"
                + " values (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
        return batch(db, sql, rows, (s, o) -> {
            s.setString(1, o.store());
            s.setString(2, o.bucket());
            s.setString(3, o.key());
            s.setString(4, o.assetId());
            s.setString(5, o.kind() == null ? null : o.kind().name());
            s.setLong(6, o.bytes());
            s.setString(7, o.sha256());
            s.setString(8, o.etag());
            s.setString(9, o.localPath());
            time(s, 10, o.uploadedAt());
            s.setString(11, o.headResult() == null ? null : o.headResult().name());
            time(s, 12, o.headAt());
            s.setString(13, o.fullReadResult() == null ? null : o.fullReadResult().name());
            time(s, 14, o.fullReadAt());
            s.setString(15, o.uploadedEventId());
            s.setString(16, o.headEventId());
            s.setString(17, o.fullReadEventId());
        });
    }

    private static long failures(Connection db, String schema, Iterable<UploadFailureRecord> rows) throws SQLException {
        String sql = "insert into " + schema + ".ledger_upload_failure (event_id, asset_id, store, object_key, reason, permanent,"
                + " event_time) values (?,?,?,?,?,?,?)";
        return batch(db, sql, rows, (s, f) -> {
            s.setString(1, f.eventId());
            s.setString(2, f.assetId());
            s.setString(3, f.store());
            s.setString(4, f.key());
            s.setString(5, f.reason());
            s.setBoolean(6, f.permanent());
            time(s, 7, f.eventTime());
        });
    }

    private static long releases(Connection db, String schema, Iterable<ReleaseRecord> rows) throws SQLException {
        String sql = "insert into " + schema + ".ledger_release (request_id, path, dry_run, gate, failed, released, failure_reason,"
                + " plan) values (?,?,?,?,?,?,?,?)";
        return batch(db, sql, rows, (s, r) -> {
            // the same JSON text the live row holds (LedgerRelease.set)
            LedgerRelease row = new LedgerRelease().set(r);
            s.setString(1, row.requestId);
            s.setString(2, row.path);
            s.setBoolean(3, row.dryRun);
            s.setString(4, row.gate);
            s.setString(5, row.failed);
            s.setBoolean(6, row.released);
            s.setString(7, row.failureReason);
            s.setString(8, row.plan);
        });
    }

    private static long checkpointSteps(Connection db, String schema, Iterable<CheckpointStepRecord> rows) throws SQLException {
        String sql = "insert into " + schema + ".ledger_checkpoint_step (asset_id, experiment, run, step, metrics, tags,"
                + " published_at, published_event_id, file_count, total_bytes, pinned, pin_event_id, pin_at, expired_event_id,"
                + " expired_at, expired_bytes, lease_until, retention) values (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
        return batch(db, sql, rows, (s, r) -> {
            // the same JSON text the live row holds (LedgerCheckpointStep.set)
            LedgerCheckpointStep row = new LedgerCheckpointStep().set(r);
            s.setString(1, row.assetId);
            s.setString(2, row.experiment);
            s.setString(3, row.run);
            s.setLong(4, row.step);
            s.setString(5, row.metrics);
            s.setString(6, row.tags);
            time(s, 7, row.publishedAt);
            s.setString(8, row.publishedEventId);
            s.setInt(9, row.fileCount);
            s.setLong(10, row.totalBytes);
            s.setBoolean(11, row.pinned);
            s.setString(12, row.pinEventId);
            time(s, 13, row.pinAt);
            s.setString(14, row.expiredEventId);
            time(s, 15, row.expiredAt);
            s.setLong(16, row.expiredBytes);
            time(s, 17, row.leaseUntil);
            s.setString(18, row.retention);
        });
    }

    private static long promotions(Connection db, String schema, Iterable<ModelPromotionRecord> rows) throws SQLException {
        String sql = "insert into " + schema + ".ledger_model_promotion (model_asset_id, checkpoint_asset_id, event_id,"
                + " promoted_at) values (?,?,?,?)";
        return batch(db, sql, rows, (s, p) -> {
            s.setString(1, p.modelAssetId());
            s.setString(2, p.checkpointAssetId());
            s.setString(3, p.eventId());
            time(s, 4, p.promotedAt());
        });
    }

    private interface Binder<T> {
        void bind(PreparedStatement statement, T row) throws SQLException;
    }

    private static <T> long batch(Connection db, String sql, Iterable<T> rows, Binder<T> binder) throws SQLException {
        long count = 0;
        try (PreparedStatement s = db.prepareStatement(sql)) {
            for (T row : rows) {
                binder.bind(s, row);
                s.addBatch();
                if (++count % BATCH == 0) {
                    s.executeBatch();
                }
            }
            s.executeBatch();
        }
        return count;
    }

    private static void time(PreparedStatement s, int index, Instant time) throws SQLException {
        if (time == null) {
            s.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
            // PostgreSQL keeps microseconds; the live rows come through the Vert.x client, which truncates the
            // nanoseconds, while the JDBC driver would round them: truncate here so both sides hold the same value
            s.setObject(index, time.truncatedTo(ChronoUnit.MICROS).atOffset(java.time.ZoneOffset.UTC));
        }
    }

    private static String checked(String schema) {
        if (!SCHEMA.matcher(schema).matches()) {
            throw new IllegalArgumentException("not a plain schema name: " + schema);
        }
        return schema;
    }
}
