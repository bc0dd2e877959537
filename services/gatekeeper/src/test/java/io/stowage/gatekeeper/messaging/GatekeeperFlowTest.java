package io.stowage.gatekeeper.messaging;

import io.stowage.stack.KafkaProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.ConditionResult;
import io.stowage.events.DirectoryInventory;
import io.stowage.events.DirectoryFingerprint;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.FailedCondition;
import io.stowage.events.GateDenied;
import io.stowage.events.GatePassed;
import io.stowage.events.GateSignature;
import io.stowage.events.ObjectKind;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.Topics;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ReleaseEvidence;
import io.stowage.gatekeeper.EvidenceFixture;
import io.stowage.gatekeeper.domain.GateAnswer;
import io.stowage.stack.StowageStackResource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The gatekeeper against the real Kafka broker of the embedded stack, real files in a temp
 * directory, and a WireMock stand-in for the ledger service answering with the ledger's JSON.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
@QuarkusTestResource(LedgerStub.class)
class GatekeeperFlowTest {
    static final EvidenceFixture.Disk DISK = (path, bytes) -> {
        try {
            Files.createDirectories(path.getParent());
            Files.write(path, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    };

    @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ALWAYS)
    Path tmp;
    KafkaProbe kafka;
    Path dataset;

    @BeforeEach
    void setUp() {
        kafka = new KafkaProbe(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
        dataset = tmp.resolve("vol/data/speech");
        ledgerLag(0, 0); // caught up: a test that wants the ledger behind stubs its own lag
    }

    @Test
    void anArchivedVerifiedDirectoryPassesWithItsFingerprint() throws Exception {
        AssetEvidence asset = EvidenceFixture.dataset(DISK, dataset, tmp.resolve("staging"),
                Map.of("a/1.wav", "one", "a/2.wav", "two!", "meta.txt", "m"));
        ReleaseRequested request = request(dataset);
        ledgerHas(request, asset);

        ConsumerRecord<String, byte[]> record = publishAndAwait(request, Topics.GATE_PASSED);
        GatePassed passed = EventCodec.decode(GatePassed.class, record.value());

        assertThat(passed.requestId()).isEqualTo(request.requestId());
        assertThat(passed.path()).isEqualTo(dataset.toString());
        assertThat(passed.assets()).containsExactly("dataset/speech/r1");
        assertThat(passed.fileCount()).isEqualTo(3);
        assertThat(passed.totalBytes()).isEqualTo(8);
        assertThat(passed.fingerprint()).isEqualTo(DirectoryFingerprint.of(dataset).sha256());
        assertThat(passed.meta().causationId()).isEqualTo(request.meta().eventId());
        assertThat(KafkaProbe.header(record, CloudEventHeaders.SOURCE)).isEqualTo("/stowage/gatekeeper");
        assertThat(KafkaProbe.header(record, CloudEventHeaders.TYPE)).isEqualTo("io.stowage.gate.passed.v1");
        assertThat(KafkaProbe.header(record, CloudEventHeaders.ID)).isEqualTo(passed.meta().eventId());
        assertThat(KafkaProbe.header(record, CloudEventHeaders.CAUSATION_ID)).isEqualTo(request.meta().eventId());
        assertThat(signature().verifies(record.value(), KafkaProbe.header(record, CloudEventHeaders.SIGNATURE)))
                .as("gate.passed carries the HMAC of its exact value bytes").isTrue();
        DirectoryInventory inventory = DirectoryInventory.take(dataset);
        assertThat(passed.inventoryDigest()).isEqualTo(inventory.digest());
        assertThat(passed.inventory()).isEqualTo(inventory.entries());
        assertThat(passed.conditions()).extracting(ConditionResult::condition, ConditionResult::passed).containsExactly(
                tuple(1, true), tuple(2, true), tuple(3, true), tuple(4, true), tuple(5, true));
        String shardKey = asset.objects().stream().filter(o -> o.kind() == ObjectKind.SHARD).findFirst().orElseThrow().key();
        assertThat(passed.conditions().get(1).evidence()).containsExactly("full:primary:" + shardKey);
        assertThat(passed.conditions().get(2).evidence()).containsExactly("seal:dataset/speech/r1");
    }

    @Test
    void aShardDeletedFromTheStoreAfterItsVerificationIsDeniedAndTheDirectoryKept() throws Exception {
        AssetEvidence asset = EvidenceFixture.dataset(DISK, dataset, tmp.resolve("staging"),
                Map.of("a/1.wav", "one-gone", "meta.txt", "m-gone"));
        ReleaseRequested request = request(dataset);
        ledgerHas(request, asset);
        String shardKey = asset.objects().stream().filter(o -> o.kind() == ObjectKind.SHARD).findFirst().orElseThrow().key();
        StoredEvidence.remove("primary", shardKey); // the ledger still says: uploaded, HEAD OK, full read OK

        GateDenied denied = EventCodec.decode(GateDenied.class, publishAndAwait(request, Topics.GATE_DENIED).value());

        assertThat(denied.failed()).extracting(FailedCondition::condition, FailedCondition::code)
                .containsExactly(tuple(1, "store-object-gone"), tuple(2, "no-full-read")); // its full read was of it
        assertThat(denied.failed().get(0).detail()).contains(shardKey);
        assertThat(dataset.resolve("a/1.wav")).hasContent("one-gone");
    }

    @Test
    void targetsOutsideTheVolumeRootsOrAtTheRootAreDeniedWithAllFiveConditions() throws Exception {
        for (String target : List.of("/opt", "/", "/root", tmp.resolve("vol/../etc").toString())) {
            ReleaseRequested request = ReleaseRequested.of(EventMeta.first(UUID.randomUUID().toString(), Clock.systemUTC()),
                    UUID.randomUUID().toString(), target, false, "test");
            ledgerHas(request, null);

            GateDenied denied = EventCodec.decode(GateDenied.class, publishAndAwait(request, Topics.GATE_DENIED).value());

            assertThat(denied.failed()).extracting(FailedCondition::code).as(target)
                    .containsAnyOf("outside-volume-roots", "protected-root", "home-directory", "not-normalised");
            assertThat(denied.conditions()).hasSize(5).allMatch(c -> !c.passed());
        }
    }

    @Test
    void anExtraFileDeniesConditionFiveAndIsNamed() throws Exception {
        AssetEvidence asset = EvidenceFixture.dataset(DISK, dataset, tmp.resolve("staging"),
                Map.of("a/1.wav", "one"));
        Files.writeString(dataset.resolve("a/notes-not-archived.txt"), "scribbles");
        ReleaseRequested request = request(dataset);
        ledgerHas(request, asset);
        double unaccounted = metric("stowage_gatekeeper_failed_conditions_total", "code=\"unaccounted-file\",condition=\"5\"");
        double denials = metric("stowage_gatekeeper_decisions_total", "dry_run=\"false\",outcome=\"denied\"");

        ConsumerRecord<String, byte[]> record = publishAndAwait(request, Topics.GATE_DENIED);
        GateDenied denied = EventCodec.decode(GateDenied.class, record.value());
        assertThat(metric("stowage_gatekeeper_failed_conditions_total", "code=\"unaccounted-file\",condition=\"5\"")
                - unaccounted).as("condition 5 failures on /q/metrics").isEqualTo(1);
        assertThat(metric("stowage_gatekeeper_decisions_total", "dry_run=\"false\",outcome=\"denied\"") - denials)
                .as("denials on /q/metrics").isEqualTo(1);

        assertThat(signature().verifies(record.value(), KafkaProbe.header(record, CloudEventHeaders.SIGNATURE))).isTrue();
        assertThat(denied.failed()).extracting(FailedCondition::condition, FailedCondition::code)
                .containsExactly(tuple(5, "unaccounted-file"));
        assertThat(denied.failed().get(0).detail()).contains("a/notes-not-archived.txt");
        assertThat(denied.conditions()).extracting(ConditionResult::condition, ConditionResult::passed).containsExactly(
                tuple(1, true), tuple(2, true), tuple(3, true), tuple(4, true), tuple(5, false));
        assertThat(denied.conditions().get(4).reason()).contains("unaccounted-file", "a/notes-not-archived.txt");
        assertThat(denied.conditions().get(0).evidence()).contains("seal:dataset/speech/r1");
        assertThat(denied.assets()).containsExactly("dataset/speech/r1");
        assertThat(dataset.resolve("a/1.wav")).exists();
    }

    @Test
    void aLedgerAnswering500IsADenial() throws Exception {
        ReleaseRequested request = request(dataset);
        LedgerStub.server.stubFor(get(urlPathEqualTo("/api/events/" + request.meta().eventId()))
                .willReturn(aResponse().withStatus(500)));

        GateDenied denied = EventCodec.decode(GateDenied.class, publishAndAwait(request, Topics.GATE_DENIED).value());

        assertThat(denied.failed()).extracting(FailedCondition::condition, FailedCondition::code)
                .containsExactly(tuple(0, "ledger-unavailable"));
        assertThat(denied.failed().get(0).detail()).contains(request.meta().eventId(), "HTTP 500");
        assertThat(denied.conditions()).hasSize(5).allSatisfy(c -> {
            assertThat(c.passed()).isFalse();
            assertThat(c.reason()).startsWith("not evaluated: ledger-unavailable");
            assertThat(c.evidence()).isEmpty();
        });
    }

    @Test
    void aLedgerThatHasNotStoredTheRequestIsADenial() throws Exception {
        ReleaseRequested request = request(dataset);
        LedgerStub.server.stubFor(get(urlPathEqualTo("/api/events/" + request.meta().eventId()))
                .willReturn(aResponse().withStatus(404)));

        GateDenied denied = EventCodec.decode(GateDenied.class, publishAndAwait(request, Topics.GATE_DENIED).value());

        assertThat(denied.failed()).extracting(FailedCondition::code).containsExactly("ledger-behind");
    }

    @Test
    void aLedgerBehindOnAnEvidenceTopicIsADenialNamingTheLag() throws Exception {
        AssetEvidence asset = EvidenceFixture.dataset(DISK, dataset, tmp.resolve("staging"), Map.of("a/1.wav", "one"));
        ReleaseRequested request = request(dataset);
        ledgerHas(request, asset);
        ledgerLag(2, 5); // three object.verified records before the request are not stored yet

        GateDenied denied = EventCodec.decode(GateDenied.class, publishAndAwait(request, Topics.GATE_DENIED).value());

        assertThat(denied.failed()).extracting(FailedCondition::condition, FailedCondition::code)
                .containsExactly(tuple(0, "ledger-behind"));
        assertThat(denied.failed().get(0).detail()).contains(request.meta().eventId(), "object.verified 3 record(s) behind");
        assertThat(dataset.resolve("a/1.wav")).exists();
    }

    @Test
    void anEvidenceTopicMissingOnTheBrokerIsLedgerBehindNamingIt() throws Exception {
        AssetEvidence asset = EvidenceFixture.dataset(DISK, dataset, tmp.resolve("staging"), Map.of("a/1.wav", "one"));
        ReleaseRequested request = request(dataset);
        ledgerHas(request, asset);
        List<Map<String, Object>> partitions = new java.util.ArrayList<>();
        for (String topic : io.stowage.gatekeeper.domain.LedgerProgress.EVIDENCE_TOPICS) {
            if (!topic.equals(Topics.BASELINE_ARCHIVED)) {
                partitions.add(Map.of("topic", topic, "partition", 0, "consumed", 7, "end", 7, "lag", 0));
            }
        }
        LedgerStub.server.stubFor(get(urlPathEqualTo("/api/lag")).willReturn(aResponse()
                .withHeader("Content-Type", "application/json").withBody(EvidenceFixture.json(Map.of("group",
                        "stowage-ledger", "caughtUp", false, "missing", List.of(Topics.BASELINE_ARCHIVED), "partitions", partitions)))));

        GateDenied denied = EventCodec.decode(GateDenied.class, publishAndAwait(request, Topics.GATE_DENIED).value());

        assertThat(denied.failed()).extracting(FailedCondition::condition, FailedCondition::code)
                .containsExactly(tuple(0, "ledger-behind"));
        assertThat(denied.failed().get(0).detail()).contains("no partition of baseline.archived (missing on the broker)");
        assertThat(dataset.resolve("a/1.wav")).exists();
    }

    @Test
    void aRedeliveredRequestIsDecidedOnce() throws Exception {
        AssetEvidence asset = EvidenceFixture.dataset(DISK, dataset, tmp.resolve("staging"), Map.of("a/1.wav", "one"));
        ReleaseRequested request = request(dataset);
        ledgerHas(request, asset);

        publish(request);
        publish(request); // the same record again: a gatekeeper killed after sending, a rebalance, offsets reset
        GatePassed marker = EventCodec.decode(GatePassed.class, publishAndAwaitAfter(marker(request, asset), Topics.GATE_PASSED));

        assertThat(decisionsOn(Topics.GATE_PASSED, request)).extracting(r -> KafkaProbe.header(r, CloudEventHeaders.ID))
                .containsExactly(decisionId(request));
        assertThat(decisionsOn(Topics.GATE_DENIED, request)).isEmpty();
        assertThat(marker.meta().causationId()).isNotEqualTo(request.meta().eventId());
    }

    @Test
    void aRequestRedeliveredWhileTheLedgerLagsKeepsItsFirstDecision() throws Exception {
        AssetEvidence asset = EvidenceFixture.dataset(DISK, dataset, tmp.resolve("staging"), Map.of("a/1.wav", "one"));
        ReleaseRequested request = request(dataset);
        ledgerHas(request, asset);
        publishAndAwait(request, Topics.GATE_PASSED);
        ledgerLag(2, 5); // the ledger has not stored the approval yet: it cannot say the request was decided

        publish(request);
        ReleaseRequested marker = marker(request, asset);
        GateDenied markerDenied = EventCodec.decode(GateDenied.class, publishAndAwaitAfter(marker, Topics.GATE_DENIED));

        assertThat(markerDenied.meta().causationId()).as("the only denial on this key is the marker's (ledger-behind)")
                .isEqualTo(marker.meta().eventId());
        assertThat(decisionsOn(Topics.GATE_DENIED, request)).isEmpty();
        assertThat(decisionsOn(Topics.GATE_PASSED, request)).hasSize(1);
    }

    @Test
    void aDecisionSentBeforeThisInstanceStartedIsFoundAndAForgedOneIsNot() throws Exception {
        AssetEvidence asset = EvidenceFixture.dataset(DISK, dataset, tmp.resolve("staging"), Map.of("a/1.wav", "one"));
        ReleaseRequested denied = request(dataset);
        ReleaseRequested forgedFor = request(dataset);
        ledgerHas(denied, asset);
        ledgerHas(forgedFor, asset);
        // an earlier instance denied the first request and was killed before committing its offset
        GateDenied earlier = GateAnswer.denied(denied, new FailedCondition(0, "ledger-behind", "ledger behind"), Clock.systemUTC());
        byte[] value = EventCodec.encode(earlier);
        Map<String, String> headers = new java.util.HashMap<>(CloudEventHeaders.of(earlier, "/stowage/gatekeeper"));
        headers.put(CloudEventHeaders.SIGNATURE, signature().sign(value));
        kafka.send(Topics.GATE_DENIED, earlier.assetId(), value, headers);
        // a plain producer's unsigned denial under the second request's decision id
        GateDenied forged = GateAnswer.denied(forgedFor, new FailedCondition(0, "ledger-behind", "forged"), Clock.systemUTC());
        kafka.send(Topics.GATE_DENIED, forged.assetId(), EventCodec.encode(forged), CloudEventHeaders.of(forged, "/forger"));

        publish(denied);
        GatePassed forgedForPassed = EventCodec.decode(GatePassed.class, publishAndAwait(forgedFor, Topics.GATE_PASSED).value());
        publishAndAwaitAfter(marker(denied, asset), Topics.GATE_PASSED);

        assertThat(forgedForPassed.meta().eventId()).as("an unsigned record stands for no decision").isEqualTo(decisionId(forgedFor));
        assertThat(decisionsOn(Topics.GATE_PASSED, denied)).as("the redelivered request is not approved after its denial")
                .isEmpty();
        assertThat(decisionsOn(Topics.GATE_DENIED, denied)).hasSize(1);
    }

    @Test
    void aRequestWhoseDecisionTheLedgerHoldsIsNotDecidedAgain() throws Exception {
        AssetEvidence asset = EvidenceFixture.dataset(DISK, dataset, tmp.resolve("staging"), Map.of("a/1.wav", "one"));
        ReleaseRequested decided = request(dataset);
        ledgerHas(decided, asset);
        String decisionId = UUID.nameUUIDFromBytes(("gate-decision:" + decided.meta().eventId())
                .getBytes(StandardCharsets.UTF_8)).toString();
        LedgerStub.server.stubFor(get(urlPathEqualTo("/api/events/" + decisionId)).willReturn(aResponse()
                .withHeader("Content-Type", "application/json").withBody(EvidenceFixture.json(Map.of("eventId", decisionId,
                        "topic", Topics.GATE_PASSED)))));
        // a new request of the same release (same key, so the same partition, handled after the first)
        ReleaseRequested next = ReleaseRequested.of(EventMeta.first(decided.requestId(), Clock.systemUTC()),
                decided.requestId(), dataset.toString(), false, "test");
        ledgerHas(next, asset);

        publish(decided);
        GatePassed passed = EventCodec.decode(GatePassed.class, publishAndAwait(next, Topics.GATE_PASSED).value());

        assertThat(passed.meta().causationId()).as("the first decision on this key is the new request's")
                .isEqualTo(next.meta().eventId());
        assertThat(kafka.keysUpToEnd(Topics.GATE_PASSED)).filteredOn(decided.assetId()::equals).hasSize(1);
        assertThat(kafka.keysUpToEnd(Topics.GATE_DENIED)).doesNotContain(decided.assetId());
    }

    @Test
    void aRequestOlderThanTheMaximumAgeIsRefusedAsStale() throws Exception {
        AssetEvidence asset = EvidenceFixture.dataset(DISK, dataset, tmp.resolve("staging"), Map.of("a/1.wav", "one"));
        String requestId = UUID.randomUUID().toString();
        ReleaseRequested request = ReleaseRequested.of(EventMeta.first(requestId,
                Clock.offset(Clock.systemUTC(), java.time.Duration.ofHours(-2))), requestId, dataset.toString(), false, "test");
        ledgerHas(request, asset);

        GateDenied denied = EventCodec.decode(GateDenied.class, publishAndAwait(request, Topics.GATE_DENIED).value());

        assertThat(denied.failed()).extracting(FailedCondition::condition, FailedCondition::code)
                .containsExactly(tuple(0, "stale-request"));
        assertThat(denied.conditions()).hasSize(5).allSatisfy(c -> assertThat(c.passed()).isFalse());
        assertThat(denied.meta().eventId()).isEqualTo(UUID.nameUUIDFromBytes(("gate-decision:" + request.meta().eventId())
                .getBytes(StandardCharsets.UTF_8)).toString());
        assertThat(dataset.resolve("a/1.wav")).exists();
    }

    @Test
    void anUndecodableRecordGoesToTheDeadLetterTopic() throws Exception {
        String key = "release/" + UUID.randomUUID();
        kafka.send(Topics.VOLUME_RELEASE_REQUESTED, key, "{not json".getBytes(StandardCharsets.UTF_8), Map.of());

        ConsumerRecord<String, byte[]> dead = kafka.await(Topics.dlq(Topics.VOLUME_RELEASE_REQUESTED), key);

        assertThat(new String(dead.value(), StandardCharsets.UTF_8)).isEqualTo("{not json");
        assertThat(KafkaProbe.header(dead, CloudEventHeaders.DLQ_REASON)).contains("not a ReleaseRequested");
    }

    // a new request of the same release: same key, so the same partition, handled after every earlier delivery
    private static ReleaseRequested marker(ReleaseRequested request, AssetEvidence asset) {
        ReleaseRequested marker = ReleaseRequested.of(EventMeta.first(request.requestId(), Clock.systemUTC()),
                request.requestId(), request.path(), false, "test");
        ledgerHas(marker, asset);
        return marker;
    }

    // the value of the decision caused by this request, once it is on the topic
    private byte[] publishAndAwaitAfter(ReleaseRequested request, String topic) throws Exception {
        publish(request);
        return kafka.await(topic, r -> request.meta().eventId().equals(KafkaProbe.header(r, CloudEventHeaders.CAUSATION_ID)), 1)
                .get(0).value();
    }

    // every record of the topic up to its end caused by this request's event
    private List<ConsumerRecord<String, byte[]>> decisionsOn(String topic, ReleaseRequested request) {
        return kafka.recordsUpToEnd(topic).stream()
                .filter(r -> request.meta().eventId().equals(KafkaProbe.header(r, CloudEventHeaders.CAUSATION_ID))).toList();
    }

    private static String decisionId(ReleaseRequested request) {
        return UUID.nameUUIDFromBytes(("gate-decision:" + request.meta().eventId()).getBytes(StandardCharsets.UTF_8))
                .toString();
    }

    private static GateSignature signature() {
        return new GateSignature(ConfigProvider.getConfig().getValue("stowage.gate.signing-key", String.class));
    }

    private static ReleaseRequested request(Path dir) {
        String requestId = UUID.randomUUID().toString();
        return ReleaseRequested.of(EventMeta.first(requestId, Clock.systemUTC()), requestId, dir.toString(), false,
                "test");
    }

    // the ledger stub answers with the asset's evidence, and the stores hold the objects it names (the gate HEADs them)
    private static void ledgerHas(ReleaseRequested request, AssetEvidence asset) {
        StoredEvidence.put(asset);
        String eventId = request.meta().eventId();
        LedgerStub.server.stubFor(get(urlPathEqualTo("/api/events/" + eventId)).willReturn(aResponse()
                .withHeader("Content-Type", "application/json")
                .withBody(EvidenceFixture.json(Map.of("eventId", eventId, "topic", request.topic(),
                        "assetId", request.assetId())))));
        LedgerStub.server.stubFor(get(urlPathEqualTo("/api/evidence")).withQueryParam("path", equalTo(request.path()))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody(EvidenceFixture.json(new ReleaseEvidence(request.path(),
                                asset == null ? List.of() : List.of(asset))))));
    }

    private ConsumerRecord<String, byte[]> publishAndAwait(ReleaseRequested request, String topic) throws Exception {
        publish(request);
        return kafka.await(topic, request.assetId());
    }

    private void publish(ReleaseRequested request) {
        kafka.send(request.topic(), request.assetId(), EventCodec.encode(request),
                CloudEventHeaders.of(request, "/stowage/cli"));
    }

    // the ledger's GET /api/lag: every evidence topic caught up, except object.verified partition 0 at consumed/end
    private static void ledgerLag(long consumed, long end) {
        List<Map<String, Object>> partitions = new java.util.ArrayList<>();
        for (String topic : io.stowage.gatekeeper.domain.LedgerProgress.EVIDENCE_TOPICS) {
            boolean lagging = topic.equals(Topics.OBJECT_VERIFIED);
            partitions.add(Map.of("topic", topic, "partition", 0, "consumed", lagging ? consumed : 7,
                    "end", lagging ? end : 7, "lag", lagging ? end - consumed : 0));
        }
        LedgerStub.server.stubFor(get(urlPathEqualTo("/api/lag")).willReturn(aResponse()
                .withHeader("Content-Type", "application/json")
                .withBody(EvidenceFixture.json(Map.of("group", "stowage-ledger", "partitions", partitions)))));
    }

    /** @return the value of one Prometheus series on {@code /q/metrics} (labels in name order), 0 before any */
    static double metric(String name, String labels) {
        String text = io.restassured.RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
        for (String line : text.split("\n")) {
            if (line.startsWith(name + "{" + labels)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }
}
