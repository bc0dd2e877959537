package io.stowage.ledger.persistence;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.stack.StowageStackResource;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stack's PostgreSQL answers a commit only once it is durable ({@code synchronous_commit=on}, {@code fsync=on}),
 * and the ledger's reactive connections to it carry {@code idle_in_transaction_session_timeout}: a store
 * attempt abandoned at {@code store-retry.attempt-timeout} cannot keep its transaction (and the chain head's row lock)
 * open on a live connection for longer than that.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class ConnectionSettingsTest {
    @Inject
    Pool pool;

    @Test
    void aCommitIsDurableBeforeItIsAnswered() {
        // an ack after a commit that a crash can still undo would lose the batch's events: its offsets are committed
        assertThat(setting("synchronous_commit")).isEqualTo("on");
        assertThat(setting("fsync")).isEqualTo("on");
    }

    private String setting(String name) {
        return pool.query("show " + name).execute().await().atMost(Duration.ofSeconds(30)).iterator().next().getString(0);
    }

    @Test
    void everyConnectionEndsATransactionLeftIdle() {
        Row row = pool.query("show idle_in_transaction_session_timeout").execute().await().atMost(Duration.ofSeconds(30))
                .iterator().next();
        assertThat(row.getString(0)).isEqualTo("30s");
    }
}
