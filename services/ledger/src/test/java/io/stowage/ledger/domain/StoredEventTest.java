package io.stowage.ledger.domain;

import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.ObjectUploaded;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static io.stowage.ledger.domain.Events.SHA_A;
import static io.stowage.ledger.domain.Events.T0;
import static org.assertj.core.api.Assertions.assertThat;

class StoredEventTest {

    @Test
    void mainTopicEventKeepsItsIdsTimesAndExactPayload() {
        ObjectUploaded event = Events.uploaded(T0, "k", 1000, SHA_A);
        byte[] value = EventCodec.encode(event);
        KafkaPosition at = new KafkaPosition("object.uploaded", 2, 41, event.assetId(), T0.plusSeconds(9), Map.of());

        StoredEvent row = StoredEvent.of(event, at, value, T0.plusSeconds(10));

        assertThat(row.eventId()).isEqualTo(event.meta().eventId());
        assertThat(row.type()).isEqualTo("io.stowage.object.uploaded.v1");
        assertThat(row.assetId()).isEqualTo("dataset/speech/r1");
        assertThat(row.correlationId()).isEqualTo("dataset/speech/r1");
        assertThat(row.eventTime()).isEqualTo(T0);
        assertThat(row.partition()).isEqualTo(2);
        assertThat(row.offset()).isEqualTo(41);
        assertThat(row.payload()).isEqualTo(new String(value, StandardCharsets.UTF_8));
        assertThat(row.deadLetter()).isFalse();
    }

    @Test
    void deadLetterIsKeyedByItsCeIdAndKeepsTheReason() {
        KafkaPosition at = new KafkaPosition("shard.built.dlq", 1, 7, "dataset/x/r1", T0, Map.of(
                CloudEventHeaders.ID, "e-1", CloudEventHeaders.TIME, "2026-11-30T09:00:00Z",
                CloudEventHeaders.DLQ_REASON, "not a ShardBuilt: bad JSON"));

        StoredEvent row = StoredEvent.deadLetter(at, "not json\0".getBytes(StandardCharsets.UTF_8), T0);

        assertThat(row.eventId()).isEqualTo("dlq:e-1");
        assertThat(row.deadLetter()).isTrue();
        assertThat(row.reason()).isEqualTo("not a ShardBuilt: bad JSON");
        assertThat(row.assetId()).isEqualTo("dataset/x/r1");
        assertThat(row.eventTime()).isEqualTo("2026-11-30T09:00:00Z");
        assertThat(row.payload()).isEqualTo("not json\uFFFD");
    }

    @Test
    void deadLetterWithoutCeIdIsKeyedByItsPosition() {
        KafkaPosition at = new KafkaPosition("gate.denied.dlq", 3, 12, null, T0, Map.of());

        StoredEvent row = StoredEvent.deadLetter(at, null, T0);

        assertThat(row.eventId()).isEqualTo("dlq:gate.denied.dlq:3:12");
        assertThat(row.eventTime()).isEqualTo(T0);
        assertThat(row.payload()).isNull();
    }
}
