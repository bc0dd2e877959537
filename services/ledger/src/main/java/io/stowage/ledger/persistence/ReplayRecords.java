package io.stowage.ledger.persistence;

import io.agroal.api.AgroalDataSource;
import io.stowage.ledger.domain.ReplayRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

/** The table of completed audit replays ({@code ledger_audit_replay}, V38). Blocking JDBC; call off the event loop. */
@ApplicationScoped
public class ReplayRecords {
    private final AgroalDataSource dataSource;

    @Inject
    public ReplayRecords(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Records one replay; throws {@link SQLException} when PostgreSQL fails. */
    public void record(ReplayRecord r) throws SQLException {
        try (Connection db = dataSource.getConnection(); PreparedStatement s = db.prepareStatement("""
                insert into ledger_audit_replay (finished_at, requested_by, scope, identical, live_caught_up, records,
                                                 events, differences, seconds)
                values (?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            s.setTimestamp(1, Timestamp.from(r.finishedAt()));
            s.setString(2, r.requestedBy());
            s.setString(3, r.scope());
            s.setBoolean(4, r.identical());
            s.setBoolean(5, r.liveCaughtUp());
            s.setLong(6, r.records());
            s.setLong(7, r.events());
            s.setInt(8, r.differences());
            s.setDouble(9, r.seconds());
            s.executeUpdate();
        }
    }

    /**
     * @param limit how many at most, 1 or more
     * @return the newest replays first; throws {@link SQLException} when PostgreSQL fails
     */
    public List<ReplayRecord> newest(int limit) throws SQLException {
        List<ReplayRecord> out = new ArrayList<>();
        try (Connection db = dataSource.getConnection(); PreparedStatement s = db.prepareStatement("""
                select finished_at, requested_by, scope, identical, live_caught_up, records, events, differences, seconds
                from ledger_audit_replay order by finished_at desc, id desc limit ?""")) {
            s.setInt(1, limit);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    out.add(new ReplayRecord(r.getTimestamp(1).toInstant(), r.getString(2), r.getString(3),
                            r.getBoolean(4), r.getBoolean(5), r.getLong(6), r.getLong(7), r.getInt(8), r.getDouble(9)));
                }
            }
        }
        return out;
    }
}
