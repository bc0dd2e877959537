package io.stowage.ledger.persistence;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;

/**
 * Tells whether PostgreSQL answers now: {@code select 1} through the ledger's own connection pool, within
 * {@link #TIMEOUT}. Used to tell a failure of the database (every event would fail: wait) from a failure of one
 * event (only that one fails: isolate it).
 */
@ApplicationScoped
public class DatabaseProbe {
    /** How long the probe waits for an answer before it counts as none (a paused or overloaded server). */
    public static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final Pool pool;

    @Inject
    public DatabaseProbe(Pool pool) {
        this.pool = pool;
    }

    /** @return true when the database answered {@code select 1} within {@link #TIMEOUT}; false on any failure (never fails) */
    public Uni<Boolean> answers() {
        return pool.query("select 1").execute()
                .ifNoItem().after(TIMEOUT).fail()
                .replaceWith(true)
                .onFailure().recoverWithItem(false);
    }
}
