package io.stowage.ledger.it;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.ledger.domain.ChainReport;
import io.stowage.ledger.domain.KafkaPosition;
import io.stowage.ledger.domain.StoredEvent;
import io.stowage.ledger.persistence.EventRecorder;
import io.stowage.stack.StowageStackResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Appends 60 events from 8 threads at once, each through its own Vert.x context and transaction (as two
 * ledger instances would), every event twice: each is stored exactly once, and the chain still verifies
 * (no two rows share a seq, no link was computed from a stale head).
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class ConcurrentAppendTest {
    @Inject
    EventRecorder recorder;

    @Test
    void concurrentAppendsNeitherForkTheChainNorDuplicateAnEvent() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        List<Callable<Boolean>> appends = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            ObjectUploaded event = ObjectUploaded.of(
                    new EventMeta(UUID.randomUUID().toString(), 1, Instant.now(), "dataset/conc-" + run + "/r1", null),
                    "dataset/conc-" + run + "/r1", "primary", "stowage-primary", "datasets/conc-" + run + "/r1/shards/" + i,
                    ObjectKind.SHARD, 100 + i, "7".repeat(64), "etag-" + i, "/staging/" + run + "/" + i, false);
            StoredEvent row = StoredEvent.of(event, new KafkaPosition(event.topic(), i % 4, i, event.assetId(),
                    Instant.now(), Map.of()), EventCodec.encode(event), Instant.now());
            appends.add(() -> append(row, event));
            appends.add(() -> append(row, event));
        }
        ExecutorService threads = Executors.newFixedThreadPool(8);
        List<Boolean> stored = new ArrayList<>();
        try {
            for (Future<Boolean> result : threads.invokeAll(appends)) {
                stored.add(result.get());
            }
        } finally {
            threads.shutdownNow();
        }

        assertThat(stored).as("each event stored by exactly one of its two appends")
                .filteredOn(Boolean::booleanValue).hasSize(60);
        ChainReport report = given().get("/api/audit/chain").then().statusCode(200).extract().as(ChainReport.class);
        assertThat(report.ok()).as("chain after concurrent appends: %s", report).isTrue();
        assertThat(report.rows()).isGreaterThanOrEqualTo(60);
    }

    // one transaction on a fresh Vert.x context, as a Kafka handler would run it
    private boolean append(StoredEvent row, ObjectUploaded event) throws Exception {
        try {
            return VertxContextSupport.subscribeAndAwait(() -> recorder.record(row, event));
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
