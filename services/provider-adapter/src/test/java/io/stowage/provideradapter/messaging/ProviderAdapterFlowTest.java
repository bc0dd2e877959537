package io.stowage.provideradapter.messaging;

import io.stowage.stack.KafkaProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.ConditionResult;
import io.stowage.events.DirectoryFingerprint;
import io.stowage.events.DirectoryInventory;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.GatePassed;
import io.stowage.events.GateSignature;
import io.stowage.events.Topics;
import io.stowage.events.VolumeReleaseFailed;
import io.stowage.events.VolumeReleased;
import io.stowage.provideradapter.domain.ApprovedRelease;
import io.stowage.provideradapter.domain.OutcomeDelivery;
import io.stowage.provideradapter.domain.ReleaseEntry;
import io.stowage.provideradapter.domain.ReleaseJournal;
import io.stowage.stack.StowageStackResource;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The provider-adapter against the real Kafka broker of the embedded stack and a real temp directory. */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class ProviderAdapterFlowTest {
    @TempDir
    Path tmp;
    Path dir;
    KafkaProbe kafka;
    @Inject
    ReleaseJournal journal;
    @Inject
    OutcomeDelivery delivery;

    @BeforeEach
    void setUp() throws Exception {
        kafka = new KafkaProbe(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
        dir = tmp.resolve("vol/ckpt/exp/run1/step-100");
        Files.createDirectories(dir.resolve("shards"));
        Files.writeString(dir.resolve("model.bin"), "weights");
        Files.writeString(dir.resolve("shards/part-0"), "0123456789");
    }

    @Test
    void anApprovedDirectoryIsDeleted() throws Exception {
        GatePassed gate = gatePassed(false, DirectoryFingerprint.of(dir).sha256());

        ConsumerRecord<String, byte[]> record = publishAndAwait(gate, Topics.VOLUME_RELEASED);
        VolumeReleased released = EventCodec.decode(VolumeReleased.class, record.value());

        assertThat(dir).doesNotExist();
        assertThat(dir.getParent()).isDirectory();
        assertThat(released.path()).isEqualTo(dir.toString());
        assertThat(released.provider()).isEqualTo("local");
        assertThat(released.fileCount()).isEqualTo(2);
        assertThat(released.totalBytes()).isEqualTo(17);
        assertThat(released.meta().causationId()).isEqualTo(gate.meta().eventId());
        assertThat(KafkaProbe.header(record, CloudEventHeaders.SOURCE)).isEqualTo("/stowage/provider-adapter");
        assertThat(KafkaProbe.header(record, CloudEventHeaders.TYPE)).isEqualTo("io.stowage.volume.released.v1");
    }

    @Test
    void theSameRequestDeliveredAgainIsExecutedOnceAndAnswersTheSameOutcomeEvent() throws Exception {
        String requestId = UUID.randomUUID().toString();
        GatePassed gate = gatePassed(requestId, false, DirectoryFingerprint.of(dir).sha256());
        byte[] value = EventCodec.encode(gate);
        kafka.send(gate.topic(), gate.assetId(), value, signedHeaders(gate, value));
        VolumeReleased first = EventCodec.decode(VolumeReleased.class,
                kafka.await(Topics.VOLUME_RELEASED, gate.assetId()).value());
        // the same files written again at the same path: a second execution would delete them
        Files.createDirectories(dir.resolve("shards"));
        Files.writeString(dir.resolve("model.bin"), "weights");
        Files.writeString(dir.resolve("shards/part-0"), "0123456789");
        // the record redelivered, then the gatekeeper's decision on the same request taken again (another event id)
        GatePassed redecided = gatePassed(requestId, false, DirectoryFingerprint.of(dir).sha256());
        kafka.send(gate.topic(), gate.assetId(), value, signedHeaders(gate, value));
        kafka.send(redecided.topic(), redecided.assetId(), EventCodec.encode(redecided),
                signedHeaders(redecided, EventCodec.encode(redecided)));

        List<ConsumerRecord<String, byte[]>> answers = kafka.await(Topics.VOLUME_RELEASED,
                r -> gate.assetId().equals(r.key()), 3);

        assertThat(answers).extracting(r -> EventCodec.decode(VolumeReleased.class, r.value()).meta().eventId())
                .containsOnly(first.meta().eventId());
        assertThat(answers).extracting(r -> KafkaProbe.header(r, CloudEventHeaders.ID))
                .containsOnly(first.meta().eventId());
        assertThat(first.meta().causationId()).isEqualTo(gate.meta().eventId());
        assertThat(dir.resolve("model.bin")).as("not deleted a second time").hasContent("weights");
        assertThat(kafka.keysUpToEnd(Topics.VOLUME_RELEASE_FAILED)).doesNotContain(gate.assetId());
    }

    @Test
    void aReleaseLeftDeletingByACrashIsFinishedAndItsOutcomeSentOnce() throws Exception {
        GatePassed gate = gatePassed(false, DirectoryFingerprint.of(dir).sha256());
        // what a crash right after the rename aside leaves: the directory under its hidden name, the entry DELETING
        Path aside = ApprovedRelease.of(gate).asideFor(gate.requestId());
        Files.move(dir, aside, StandardCopyOption.ATOMIC_MOVE);
        journal.save(ReleaseEntry.approved(gate, Instant.now()).deleting(aside.toString(), Instant.now()));

        delivery.retry();
        VolumeReleased released = EventCodec.decode(VolumeReleased.class,
                kafka.await(Topics.VOLUME_RELEASED, gate.assetId()).value());
        delivery.retry();

        assertThat(released.fileCount()).isEqualTo(2);
        assertThat(released.totalBytes()).isEqualTo(17);
        assertThat(released.meta().causationId()).isEqualTo(gate.meta().eventId());
        assertThat(aside).doesNotExist();
        assertThat(dir).doesNotExist();
        assertThat(dir.getParent()).isDirectory();
        assertThat(kafka.keysUpToEnd(Topics.VOLUME_RELEASED)).filteredOn(gate.assetId()::equals).hasSize(1);
        assertThat(journal.entry(gate.requestId()).orElseThrow().sent()).isTrue();
    }

    @Test
    void aFileRewrittenAfterTheGateWithSameSizeAndMtimeIsNamedAndNothingDeleted() throws Exception {
        GatePassed gate = gatePassed(false, DirectoryFingerprint.of(dir).sha256());
        Path model = dir.resolve("model.bin");
        FileTime mtime = Files.getLastModifiedTime(model);
        Files.writeString(model, "WEIGHTS");
        Files.setLastModifiedTime(model, mtime);
        Files.writeString(dir.resolve("late.txt"), "late");
        Files.delete(dir.resolve("shards/part-0"));

        VolumeReleaseFailed failed = EventCodec.decode(VolumeReleaseFailed.class,
                publishAndAwait(gate, Topics.VOLUME_RELEASE_FAILED).value());

        assertThat(failed.reason()).contains("changed since the gate passed", "added late.txt",
                "changed model.bin (bytes 7->7", "removed shards/part-0").endsWith("nothing deleted");
        assertThat(failed.meta().causationId()).isEqualTo(gate.meta().eventId());
        assertThat(model).hasContent("WEIGHTS");
        assertThat(dir.resolve("late.txt")).hasContent("late");
    }

    @Test
    void aStaleFingerprintIsRefusedAndADryRunNeverExecuted() throws Exception {
        String requestId = UUID.randomUUID().toString();
        GatePassed dryRun = gatePassed(requestId, true, DirectoryFingerprint.of(dir).sha256());
        GatePassed stale = gatePassed(requestId, false, "0".repeat(64));
        kafka.send(Topics.GATE_PASSED, dryRun.assetId(), EventCodec.encode(dryRun), signedHeaders(dryRun,
                EventCodec.encode(dryRun)));

        ConsumerRecord<String, byte[]> record = publishAndAwait(stale, Topics.VOLUME_RELEASE_FAILED);
        VolumeReleaseFailed failed = EventCodec.decode(VolumeReleaseFailed.class, record.value());

        assertThat(failed.reason()).contains("fingerprint", "nothing deleted");
        assertThat(failed.meta().causationId()).isEqualTo(stale.meta().eventId());
        assertThat(dir.resolve("model.bin")).hasContent("weights");
        assertThat(dir.resolve("shards/part-0")).hasContent("0123456789");
        // both records share the key, hence the partition: the dry run was handled first and emitted nothing
        assertThat(kafka.keysUpToEnd(Topics.VOLUME_RELEASED)).doesNotContain(stale.assetId());
    }

    @Test
    void aForgedDecisionWithoutSignatureDeletesNothing() throws Exception {
        GatePassed forged = gatePassed(false, DirectoryFingerprint.of(dir).sha256());
        kafka.send(forged.topic(), forged.assetId(), EventCodec.encode(forged),
                CloudEventHeaders.of(forged, "/stowage/gatekeeper"));

        VolumeReleaseFailed failed = EventCodec.decode(VolumeReleaseFailed.class,
                kafka.await(Topics.VOLUME_RELEASE_FAILED, forged.assetId()).value());

        assertThat(failed.reason()).isEqualTo(
                "gate decision not authenticated: no stowage-signature header; nothing deleted");
        assertThat(failed.meta().causationId()).isEqualTo(forged.meta().eventId());
        assertThat(dir.resolve("model.bin")).hasContent("weights");
        assertThat(dir.resolve("shards/part-0")).hasContent("0123456789");
    }

    @Test
    void aDecisionAlteredAfterSigningDeletesNothing() throws Exception {
        Path other = Files.createDirectories(tmp.resolve("vol/ckpt/exp/run1/step-200"));
        Files.writeString(other.resolve("model.bin"), "other weights");
        GatePassed approved = gatePassed(false, DirectoryFingerprint.of(dir).sha256());
        byte[] signedValue = EventCodec.encode(approved);
        GatePassed retargeted = GatePassed.of(approved.meta(), approved.requestId(), other.toString(), false,
                approved.assets(), DirectoryFingerprint.of(other).sha256(), approved.conditions(),
                DirectoryInventory.take(other));
        kafka.send(approved.topic(), approved.assetId(), EventCodec.encode(retargeted),
                signedHeaders(approved, signedValue));

        VolumeReleaseFailed failed = EventCodec.decode(VolumeReleaseFailed.class,
                kafka.await(Topics.VOLUME_RELEASE_FAILED, approved.assetId()).value());

        assertThat(failed.reason()).contains("not authenticated", "does not match the record", "nothing deleted");
        assertThat(failed.path()).isEqualTo(other.toString());
        assertThat(other.resolve("model.bin")).hasContent("other weights");
        assertThat(dir.resolve("model.bin")).hasContent("weights");
    }

    @Test
    void aDecisionWhoseInventoryTravelsInPartsDeletesExactlyThoseFiles() throws Exception {
        manyFiles(6_000);
        GatePassed full = gatePassed(false, DirectoryFingerprint.of(dir).sha256());
        List<List<io.stowage.events.InventoryEntry>> runs = io.stowage.events.GateInventory.split(full.inventory());
        GatePassed decision = full.byReference(runs.size());
        List<io.stowage.events.GateInventory> parts = io.stowage.events.GateInventory.partsOf(decision, runs);
        assertThat(parts).as("an inventory of 6,002 files needs several parts").hasSizeGreaterThan(2);
        assertThat(EventCodec.encode(full).length).as("what would not fit comfortably in one record")
                .isGreaterThan(io.stowage.events.GateInventory.MAX_PART_BYTES * 2);
        parts.forEach(this::sendPart);

        ConsumerRecord<String, byte[]> record = publishAndAwait(decision, Topics.VOLUME_RELEASED);
        VolumeReleased released = EventCodec.decode(VolumeReleased.class, record.value());

        assertThat(EventCodec.encode(decision).length).isLessThan(8 * 1024);
        assertThat(released.fileCount()).isEqualTo(6_002);
        assertThat(released.totalBytes()).isEqualTo(full.totalBytes());
        assertThat(dir).doesNotExist();
    }

    @Test
    void aDecisionWithAPartMissingOrForgedDeletesNothing() throws Exception {
        manyFiles(3_000);
        GatePassed full = gatePassed(false, DirectoryFingerprint.of(dir).sha256());
        List<List<io.stowage.events.InventoryEntry>> runs = io.stowage.events.GateInventory.split(full.inventory());
        GatePassed decision = full.byReference(runs.size());
        List<io.stowage.events.GateInventory> parts = io.stowage.events.GateInventory.partsOf(decision, runs);
        assertThat(parts).hasSizeGreaterThan(1);
        parts.subList(1, parts.size()).forEach(this::sendPart); // part 0 never sent

        VolumeReleaseFailed failed = EventCodec.decode(VolumeReleaseFailed.class,
                publishAndAwait(decision, Topics.VOLUME_RELEASE_FAILED).value());

        assertThat(failed.reason()).contains("gate.inventory part(s)", "nothing deleted");
        assertThat(DirectoryInventory.take(dir).digest()).as("every file still there").isEqualTo(full.inventoryDigest());

        // another request: its part 0 names one file fewer (what a forger would send to keep a file from the count)
        GatePassed second = gatePassed(false, DirectoryFingerprint.of(dir).sha256());
        List<List<io.stowage.events.InventoryEntry>> secondRuns = io.stowage.events.GateInventory.split(second.inventory());
        GatePassed secondDecision = second.byReference(secondRuns.size());
        List<io.stowage.events.GateInventory> secondParts = io.stowage.events.GateInventory.partsOf(secondDecision,
                secondRuns);
        io.stowage.events.GateInventory first = secondParts.get(0);
        sendPart(new io.stowage.events.GateInventory(first.meta(), first.requestId(), first.decisionId(),
                first.inventoryDigest(), 0, first.parts(), first.entries().subList(1, first.entries().size())));
        secondParts.forEach(this::sendPart);

        VolumeReleaseFailed refused = EventCodec.decode(VolumeReleaseFailed.class,
                publishAndAwait(secondDecision, Topics.VOLUME_RELEASE_FAILED).value());

        assertThat(refused.reason()).contains("do not join to its inventoryDigest");
        assertThat(DirectoryInventory.take(dir).digest()).isEqualTo(full.inventoryDigest());
    }

    /** Adds {@code n} small files with long names under {@code dir/wav}. */
    private void manyFiles(int n) throws IOException {
        Path wav = Files.createDirectories(dir.resolve("wav"));
        for (int i = 0; i < n; i++) {
            Files.writeString(wav.resolve(String.format("speaker-%03d-utterance-%06d-channel-left.wav", i % 97, i)),
                    "pcm " + i);
        }
    }

    private void sendPart(io.stowage.events.GateInventory part) {
        kafka.send(part.topic(), part.assetId(), EventCodec.encode(part),
                CloudEventHeaders.of(part, "/stowage/gatekeeper"));
    }

    @Test
    void anUndecodableRecordGoesToTheDeadLetterTopic() throws Exception {
        String key = "release/" + UUID.randomUUID();
        kafka.send(Topics.GATE_PASSED, key, "{\"path\":\"/\"}".getBytes(StandardCharsets.UTF_8), java.util.Map.of());

        ConsumerRecord<String, byte[]> dead = kafka.await(Topics.dlq(Topics.GATE_PASSED), key);

        assertThat(KafkaProbe.header(dead, CloudEventHeaders.DLQ_REASON)).contains("meta is missing");
        assertThat(Path.of("/")).isDirectory();
    }

    private GatePassed gatePassed(boolean dryRun, String fingerprint) throws IOException {
        return gatePassed(UUID.randomUUID().toString(), dryRun, fingerprint);
    }

    /** @return a decision for {@code dir} with the inventory it has now and five passed conditions */
    private GatePassed gatePassed(String requestId, boolean dryRun, String fingerprint) throws IOException {
        List<ConditionResult> conditions = java.util.stream.IntStream.rangeClosed(1, 5).mapToObj(c ->
                new ConditionResult(c, ConditionResult.NAMES.get(c - 1), true, "held", List.of("ev-" + c))).toList();
        return GatePassed.of(EventMeta.first(requestId, Clock.systemUTC()), requestId, dir.toString(), dryRun,
                List.of("checkpoint/exp/run1/000000000100"), fingerprint, conditions, DirectoryInventory.take(dir));
    }

    private ConsumerRecord<String, byte[]> publishAndAwait(GatePassed gate, String topic) throws Exception {
        byte[] value = EventCodec.encode(gate);
        kafka.send(gate.topic(), gate.assetId(), value, signedHeaders(gate, value));
        return kafka.await(topic, gate.assetId());
    }

    /** @return the gatekeeper's headers: CloudEvents attributes plus the HMAC of {@code value} under the test key */
    static Map<String, String> signedHeaders(GatePassed gate, byte[] value) {
        Map<String, String> headers = new LinkedHashMap<>(CloudEventHeaders.of(gate, "/stowage/gatekeeper"));
        headers.put(CloudEventHeaders.SIGNATURE, new GateSignature(ConfigProvider.getConfig()
                .getValue("stowage.gate.signing-key", String.class)).sign(value));
        return headers;
    }
}
