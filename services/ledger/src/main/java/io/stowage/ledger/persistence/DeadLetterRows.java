package io.stowage.ledger.persistence;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Counts the dead-letter rows of {@code ledger_event} over JDBC (the same count as {@code GET /api/status}'s
 * {@code deadLetters}). Blocking: call it from a worker thread (the {@code /q/metrics} scrape is one).
 */
@ApplicationScoped
public class DeadLetterRows {
    private final AgroalDataSource dataSource;

    DeadLetterRows(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** @return rows stored from a dead-letter topic; throws {@link SQLException} when PostgreSQL does not answer */
    public long count() throws SQLException {
        try (Connection db = dataSource.getConnection(); Statement s = db.createStatement()) {
            s.setQueryTimeout(5);
            try (ResultSet r = s.executeQuery("select count(*) from ledger_event where dead_letter")) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}
