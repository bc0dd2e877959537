package io.stowage.events;

import io.stowage.events.manifest.MemberEntry;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventCodecTest {
    private static final String SHA = "0123456789abcdef".repeat(4);
    private final Clock clock = Clock.fixed(Instant.parse("2026-11-30T06:00:00Z"), ZoneOffset.UTC);

    @Test
    void everyEventTypeRoundTripsThroughJson() {
        EventMeta first = EventMeta.first("dataset/speech/r1", clock);
        ShardBuilt shard = ShardBuilt.of(first, "speech", "r1", 0, "/hot/speech", "/stage/a.tar.zst", 10, SHA,
                "/stage/a.members.jsonl", 5, SHA, 3, 30);
        EventMeta next = EventMeta.causedBy(shard, clock);
        List<StowageEvent> events = List.of(shard,
                DatasetSealed.of(next, "speech", "r1", "/hot/speech", "/stage/manifest.json", 9, SHA, 1, 3, 30, "CC-BY-SA-3.0", "debian"),
                CheckpointPublished.of(next, "exp", "run", 7, "/hot/ckpt/7", "/stage/7.json", SHA, 2, 99, true,
                        List.of("best"), new Provenance("abc123", SHA, SHA)),
                ObjectUploaded.of(next, "dataset/speech/r1", "primary", "b", "k", ObjectKind.SHARD, 10, SHA, "e", "/x", false),
                ObjectUploadFailed.of(next, "dataset/speech/r1", "primary", "k", "/x", "changed", true),
                ObjectVerified.of(next, "dataset/speech/r1", "primary", "b", "k", ObjectKind.SHARD, VerifyMethod.FULL_READ,
                        VerifyResult.OK, 10, SHA, 10, SHA, null),
                ReleaseRequested.of(next, "req-1", "/hot/speech", false, "ops"),
                GatePassed.of(next, "req-1", "/hot/speech", false, List.of("dataset/speech/r1"), 3, 30, SHA),
                GateDenied.of(next, "req-1", "/hot/speech", true, List.of(new FailedCondition(5, "unaccounted-file", "notes.txt"))),
                new GateInventory(next, "req-1", "decision-1", SHA, 0, 2, List.of(new InventoryEntry("a.wav", 3, SHA))),
                VolumeReleased.of(next, "req-1", "/hot/speech", "local", 3, 30),
                VolumeReleaseFailed.of(next, "req-1", "/hot/speech", "changed since the gate"),
                VolumeCreated.of(next, "vol-1", "local", "scratch-1", "scratch", 500, "/vols/vol-1", 259200,
                        Instant.parse("2026-12-03T06:00:00Z"), new java.math.BigDecimal("5.00"), "run-1"),
                VolumeDestroyed.of(next, "vol-1", "local", 500, 259200, new java.math.BigDecimal("3.452055"), "ttl", "req-1"),
                PodCreated.of(next, "pod-1", "runpod", "train", "NVIDIA A40", 1, new java.math.BigDecimal("0.44"), "vol-1",
                        0, null, null, "run-1"),
                PodTerminated.of(next, "pod-1", "runpod", 3600, new java.math.BigDecimal("0.44"), "operator"),
                ProviderAlert.of(next, "volume", "vol-1", "release-blocked", "ttl reached; gate denied",
                        List.of("5 unaccounted-file: notes.txt"), "req-1"),
                ProviderActionFailed.of(next, "create-volume", "volume", "scratch-1", "runpod", 400, true, "size too large"),
                ArchivePublished.of(next, "run/exp/run", "/stage/archives/" + SHA + ".jsonl.zst", 321, SHA, 12, 3, 40, SHA),
                BaselineArchived.of(next, "whisper-tiny", "baseline-1", "/hot/results", "/stage/" + SHA + ".tar.zst", 237,
                        SHA, "/stage/" + SHA + ".members.jsonl", 351, SHA, "/stage/" + SHA + ".manifest.json", 480, SHA, 4, 79),
                ReleaseRefused.of(next, "refusal-1", "gatekeeper", "POST", "/api/releases", 403, "insufficient-role",
                        "ci-reader", "reader", "127.0.0.1:5000"),
                CheckpointPinned.of(next, "exp", "run", 7, true, "ops"),
                RetentionDecided.of(next, "exp", "run", new RetentionDecided.Policy(1, 1, "val_loss", "min", null, "PT6H", null, null),
                        8L, Instant.parse("2026-12-01T06:00:00Z"), SHA, List.of(new RetentionDecided.ExpiringStep(7,
                                List.of(new CheckpointExpired.ExpiredObject("primary", "b",
                                        "checkpoints/exp/run/000000000007/" + SHA + "/model.pt", 99)))), "ops"),
                CheckpointExpired.of(next, "exp", "run", 7, SHA, List.of(new CheckpointExpired.ExpiredObject("primary",
                        "b", "checkpoints/exp/run/000000000007/" + SHA + "/model.pt", 99)), "ops"),
                RetentionRefused.of(next, "decision-1", "exp", "run", List.of(new RetentionRefused.Refusal(8L, null,
                        "kept by latest, newest-verified"))),
                ModelPublished.of(next, "en-us", "r1", "/hot/en-us", "/stage/models/en-us/r1/" + SHA + ".json", 900, SHA,
                        12, 37861470, "BSD-2-Clause", "debian:pocketsphinx-en-us", null),
                ModelShared.of(next, "en-us", "r1", "ops", 259200, "2026-12-04T00:00:00Z", 12, SHA),
                RunStarted.of(next, "exp", "run", "attempt-1", 350L, "run-1"),
                RunProgress.of(next, "exp", "run", "attempt-1", 400, new RunTimes(60.5, 50.25, 4.0, 1.5)),
                RunFinished.of(next, "exp", "run", "attempt-1", 420, new RunTimes(70, 58, 4, 2), "stopped", "cap-reached"));
        assertThat(events).extracting(StowageEvent::topic).containsExactlyElementsOf(Topics.ALL);
        for (StowageEvent event : events) {
            StowageEvent decoded = EventCodec.decode(event.topic(), EventCodec.encode(event));
            assertThat(decoded).isEqualTo(event);
        }
        assertThat(next.causationId()).isEqualTo(shard.meta().eventId());
        assertThat(next.correlationId()).isEqualTo("dataset/speech/r1");
    }

    @Test
    void unknownFieldsAreIgnoredButNewerVersionsAndMissingFieldsAreRefused() throws Exception {
        ReleaseRequested request = ReleaseRequested.of(EventMeta.first("req-1", clock), "req-1", "/hot/x", false, "ops");
        @SuppressWarnings("unchecked")
        Map<String, Object> json = EventCodec.mapper().readValue(EventCodec.encode(request), Map.class);
        json.put("addedInAMinorVersion", 1);
        assertThat(EventCodec.decode(Topics.VOLUME_RELEASE_REQUESTED, EventCodec.mapper().writeValueAsBytes(json)))
                .isEqualTo(request);

        @SuppressWarnings("unchecked")
        Map<String, Object> meta = (Map<String, Object>) json.get("meta");
        meta.put("schemaVersion", 2);
        byte[] newer = EventCodec.mapper().writeValueAsBytes(json);
        assertThatThrownBy(() -> EventCodec.decode(Topics.VOLUME_RELEASE_REQUESTED, newer))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("schemaVersion 2");

        meta.put("schemaVersion", 1);
        json.remove("path");
        byte[] missing = EventCodec.mapper().writeValueAsBytes(json);
        assertThatThrownBy(() -> EventCodec.decode(Topics.VOLUME_RELEASE_REQUESTED, missing))
                .isInstanceOf(InvalidEventException.class).hasMessage("path is missing");
    }

    @Test
    void garbageAndEmptyRecordsAreInvalidEventsWithAReason() {
        assertThatThrownBy(() -> EventCodec.decode(Topics.SHARD_BUILT, "not json".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(InvalidEventException.class).hasMessageStartingWith("not a ShardBuilt");
        assertThatThrownBy(() -> EventCodec.decode(Topics.SHARD_BUILT, new byte[0]))
                .isInstanceOf(InvalidEventException.class).hasMessage("empty record value");
        assertThatThrownBy(() -> EventCodec.decode("no.such.topic", new byte[1]))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("unknown topic");
    }

    @Test
    void cloudEventHeadersCarryIdTypeSubjectAndFlow() {
        ShardBuilt shard = ShardBuilt.of(EventMeta.first("dataset/speech/r1", clock), "speech", "r1", 0, "/hot", "/s", 1,
                SHA, "/m", 1, SHA, 1, 1);
        Map<String, String> headers = CloudEventHeaders.of(shard, "/stowage/shard-builder");
        assertThat(headers).containsEntry(CloudEventHeaders.ID, shard.meta().eventId())
                .containsEntry(CloudEventHeaders.TYPE, "io.stowage.shard.built.v1")
                .containsEntry(CloudEventHeaders.SUBJECT, "dataset/speech/r1")
                .containsEntry(CloudEventHeaders.TIME, "2026-11-30T06:00:00Z")
                .containsEntry(CloudEventHeaders.CORRELATION_ID, "dataset/speech/r1")
                .doesNotContainKey(CloudEventHeaders.CAUSATION_ID);
    }

    @Test
    void aThirtyThousandMemberShardEventStaysSmall() {
        // the member manifest is referenced, never inlined: the record size does not grow with members
        ShardBuilt shard = ShardBuilt.of(EventMeta.first("dataset/speech/r1", clock), "speech", "r1", 0, "/hot", "/s", 1,
                SHA, "/m", 30_000L * 120, SHA, 30_000, 30_000L * 1_000_000);
        assertThat(EventCodec.encode(shard).length).isLessThan(2_000);
        assertThat(new MemberEntry("a.wav", 1, SHA).path()).isEqualTo("a.wav");
    }
}
