package io.stowage.provideradapter.retention;

import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.cli.retention.domain.RetentionPolicy;
import io.stowage.events.CheckpointExpired;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.GateSignature;
import io.stowage.events.ObjectKeys;
import io.stowage.events.ObjectKind;
import io.stowage.events.RetentionRefused;
import io.stowage.events.Topics;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.CheckpointStepEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.RunCheckpoints;
import io.stowage.events.manifest.LatestCheckpoint;
import io.stowage.messaging.EventPublisher;
import io.stowage.provideradapter.domain.DecisionAuthenticator;
import io.stowage.provideradapter.domain.retention.RetentionDecider;
import io.stowage.provideradapter.domain.retention.RetentionDelivery;
import io.stowage.provideradapter.domain.retention.RetentionEntry;
import io.stowage.provideradapter.domain.retention.RetentionExecutor;
import io.stowage.provideradapter.domain.retention.RetentionSources;
import io.stowage.provideradapter.persistence.FileRetentionJournal;
import io.stowage.provideradapter.storage.S3RetentionSources;
import io.stowage.stack.KafkaProbe;
import io.stowage.stack.StowageStackResource;
import io.stowage.store.StoreConfig;
import io.stowage.store.StoreSettings;
import io.stowage.store.s3.S3Clients;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The retention journal against the embedded stack's real S3Proxy (both stores) and Kafka: a provider-adapter
 * instance is killed between the two deletions of a step, and a fresh instance on the same state directory, with the
 * service's own EventPublisher, finishes it: the step's objects answer HEAD not found in both buckets, the kept steps'
 * objects are all still there, and checkpoint.expired is on the topic once per step with the journaled event id. A
 * step pinned after the kill keeps its remaining object and is reported in retention.refused. The ledger's
 * {@code GET /api/checkpoints/steps} is a stand-in HTTP server serving the run's evidence (the ledger service is not
 * part of this module's stack).
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class RetentionJournalStackTest {
    private static final String SHA = "c".repeat(64);
    private static final RetentionPolicy KEEP_LAST_AND_BEST =
            new RetentionPolicy(1, 1, "val_loss", RetentionPolicy.Mode.MIN, null, null, null);

    @Inject
    StoreSettings settings;
    @Inject
    EventPublisher publisher;
    @Inject
    DecisionAuthenticator authenticator;
    @TempDir
    Path state;

    final String experiment = "journal";
    final String run = "r" + UUID.randomUUID().toString().substring(0, 8);
    final Map<Long, Boolean> pinned = new ConcurrentHashMap<>();
    final Map<String, StoreConfig> stores = new LinkedHashMap<>();
    HttpServer ledger;
    S3RetentionSources sources;
    KafkaProbe kafka;

    @BeforeEach
    void setUp() throws Exception {
        stores.put("primary", StoreSettings.config("primary", settings.primary()));
        stores.put("replica", StoreSettings.config("replica", settings.replica()));
        ledger = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        ledger.createContext("/api/checkpoints/steps", exchange -> {
            byte[] body = EventCodec.mapper().writeValueAsBytes(steps());
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        ledger.start();
        sources = new S3RetentionSources(URI.create("http://127.0.0.1:" + ledger.getAddress().getPort()),
                Optional.empty(), stores);
        try (S3AsyncClient s3 = S3Clients.create(stores.get("primary"));
             S3AsyncClient replica = S3Clients.create(stores.get("replica"))) {
            for (long step : List.of(100L, 200L, 300L, 400L)) {
                put(s3, stores.get("primary").bucket(), key(step), "weights-" + step);
                put(replica, stores.get("replica").bucket(), key(step), "weights-" + step);
            }
            LatestCheckpoint latest = new LatestCheckpoint(LatestCheckpoint.FORMAT, experiment, run, 400,
                    "checkpoint/" + experiment + "/" + run + "/" + ObjectKeys.paddedStep(400), List.of(),
                    Instant.now().toString());
            put(s3, stores.get("primary").bucket(), ObjectKeys.checkpointLatest(experiment, run), EventCodec.mapper().writeValueAsString(latest));
        }
        kafka = new KafkaProbe(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    @AfterEach
    void tearDown() {
        ledger.stop(0);
        sources.close();
    }

    @Test
    void aKillBetweenTheDeletionsOfAStepIsFinishedByAFreshInstanceAndEachStepReportedOnce() throws Exception {
        RetentionDecider.Signed signed = decide();
        killedAtSecondDeletion(signed);
        assertThat(sources.exists("primary", key(100))).isFalse();
        assertThat(sources.exists("replica", key(100))).as("the killed attempt reached only the primary").isTrue();

        RetentionDelivery fresh = freshInstance();
        int acknowledged = fresh.retry();
        int again = freshInstance().retry();

        assertThat(acknowledged).isEqualTo(1);
        assertThat(again).isZero();
        for (String store : List.of("primary", "replica")) {
            assertThat(sources.exists(store, key(100))).isFalse();
            assertThat(sources.exists(store, key(300))).isFalse();
            assertThat(sources.exists(store, key(200))).isTrue();
            assertThat(sources.exists(store, key(400))).isTrue();
        }
        assertThat(sources.exists("primary", ObjectKeys.checkpointLatest(experiment, run))).isTrue();
        List<String> journaled = FileRetentionJournal.open(state).entry(signed.decided().meta().eventId()).orElseThrow()
                .expired().stream().map(e -> e.meta().eventId()).toList();
        for (long step : List.of(100L, 300L)) {
            String asset = "checkpoint/" + experiment + "/" + run + "/" + ObjectKeys.paddedStep(step);
            ConsumerRecord<String, byte[]> record = kafka.await(Topics.CHECKPOINT_EXPIRED, asset);
            CheckpointExpired expired = EventCodec.decode(CheckpointExpired.class, record.value());
            assertThat(expired.step()).isEqualTo(step);
            assertThat(expired.meta().causationId()).isEqualTo(signed.decided().meta().eventId());
            assertThat(journaled).contains(KafkaProbe.header(record, CloudEventHeaders.ID));
            assertThat(kafka.keysUpToEnd(Topics.CHECKPOINT_EXPIRED)).filteredOn(asset::equals).hasSize(1);
        }
        assertThat(FileRetentionJournal.open(state).entries()).singleElement()
                .satisfies(e -> assertThat(e.sent()).isTrue());
    }

    @Test
    void aStepPinnedAfterTheKillKeepsItsRemainingObjectAndIsRefused() throws Exception {
        RetentionDecider.Signed signed = decide();
        killedAtSecondDeletion(signed);
        pinned.put(100L, true);

        freshInstance().retry();

        assertThat(sources.exists("replica", key(100))).isTrue();
        assertThat(sources.exists("primary", key(300))).isFalse();
        assertThat(sources.exists("replica", key(300))).isFalse();
        List<ConsumerRecord<String, byte[]>> refused = kafka.await(Topics.RETENTION_REFUSED,
                r -> EventCodec.decode(RetentionRefused.class, r.value()).decisionId()
                        .equals(signed.decided().meta().eventId()), 1);
        RetentionRefused event = EventCodec.decode(RetentionRefused.class, refused.get(0).value());
        assertThat(event.refusals()).singleElement().satisfies(r -> {
            assertThat(r.step()).isEqualTo(100L);
            assertThat(r.reason()).contains("step 100 is pinned", "1 of its 2 object(s) were deleted before the restart");
        });
        assertThat(kafka.keysUpToEnd(Topics.CHECKPOINT_EXPIRED))
                .doesNotContain("checkpoint/" + experiment + "/" + run + "/" + ObjectKeys.paddedStep(100));
    }

    private RetentionDecider.Signed decide() throws IOException {
        String key = ConfigProvider.getConfig().getValue("stowage.gate.signing-key", String.class);
        return new RetentionDecider(sources, new GateSignature(key), Clock.systemUTC())
                .decide(experiment, run, KEEP_LAST_AND_BEST, "ops");
    }

    /** Runs the decision in an instance whose process "dies" right before its second DeleteObject. */
    private void killedAtSecondDeletion(RetentionDecider.Signed signed) throws IOException {
        RetentionSources dying = new DyingSources(sources, 2);
        RetentionExecutor executor = new RetentionExecutor(dying, authenticator, FileRetentionJournal.open(state),
                Clock.systemUTC());
        RetentionDelivery killed = new RetentionDelivery(executor, events -> publisher.sendAll(events));
        assertThatThrownBy(() -> killed.execute(signed.value(), signed.signature())).isInstanceOf(Killed.class);
        assertThat(FileRetentionJournal.open(state).entries()).singleElement()
                .satisfies(e -> assertThat(e.state()).isEqualTo(RetentionEntry.State.DELETING));
    }

    private RetentionDelivery freshInstance() throws IOException {
        RetentionExecutor executor = new RetentionExecutor(sources, authenticator, FileRetentionJournal.open(state),
                Clock.systemUTC());
        return new RetentionDelivery(executor, events -> publisher.sendAll(events));
    }

    private RunCheckpoints steps() {
        List<CheckpointStepEvidence> out = new ArrayList<>();
        Map<Long, Double> losses = Map.of(100L, 0.9, 200L, 0.2, 300L, 0.5, 400L, 0.7);
        for (long step : List.of(100L, 200L, 300L, 400L)) {
            List<ObjectEvidence> objects = List.of(
                    new ObjectEvidence("primary", stores.get("primary").bucket(), key(step), ObjectKind.CHECKPOINT_FILE,
                            bytes(step), SHA, "/hot/" + step + "/model.pt", VerifyResult.OK, VerifyResult.OK),
                    new ObjectEvidence("replica", stores.get("replica").bucket(), key(step), ObjectKind.CHECKPOINT_FILE,
                            bytes(step), SHA, "/hot/" + step + "/model.pt", VerifyResult.OK, null));
            AssetEvidence asset = new AssetEvidence("checkpoint/" + experiment + "/" + run + "/"
                    + ObjectKeys.paddedStep(step), "checkpoint", "/hot/" + step, true, "/stage/" + step + ".json", SHA,
                    false, null, null, null, null, objects, List.of());
            out.add(new CheckpointStepEvidence(step, asset, 1, bytes(step), Map.of("val_loss", losses.get(step)),
                    List.of(), Instant.now().minusSeconds(3600), pinned.getOrDefault(step, false), null, null, 0));
        }
        return new RunCheckpoints(experiment, run, out);
    }

    private String key(long step) {
        return "checkpoints/" + experiment + "/" + run + "/" + ObjectKeys.paddedStep(step) + "/" + SHA + "/model.pt";
    }

    private static long bytes(long step) {
        return ("weights-" + step).length();
    }

    private static void put(S3AsyncClient s3, String bucket, String key, String content) {
        try {
            s3.putObject(b -> b.bucket(bucket).key(key), AsyncRequestBody.fromString(content)).join();
        } catch (CompletionException e) {
            throw new IllegalStateException("cannot put " + key + " in " + bucket, e);
        }
    }

    /** The process killed: an Error, so that no catch of the code under test swallows it. */
    static final class Killed extends Error {
        Killed(String where) {
            super("killed " + where);
        }
    }

    /** The real sources, except that the n-th DeleteObject kills the instance before it is sent. */
    private static final class DyingSources implements RetentionSources {
        private final RetentionSources real;
        private final int dieAt;
        private int deletes;

        DyingSources(RetentionSources real, int dieAt) {
            this.real = real;
            this.dieAt = dieAt;
        }

        @Override
        public RunCheckpoints steps(String experiment, String run) throws IOException {
            return real.steps(experiment, run);
        }

        @Override
        public java.util.List<io.stowage.events.ledger.RunRetentionPolicy> capsulePolicies() throws IOException {
            return real.capsulePolicies();
        }

        @Override
        public Long latestStep(String experiment, String run) throws IOException {
            return real.latestStep(experiment, run);
        }

        @Override
        public Map<String, String> buckets() {
            return real.buckets();
        }

        @Override
        public void delete(String store, String key) throws IOException {
            if (++deletes == dieAt) {
                throw new Killed("before deleting " + key + " in " + store);
            }
            real.delete(store, key);
        }

        @Override
        public boolean exists(String store, String key) throws IOException {
            return real.exists(store, key);
        }
    }
}
