package io.stowage.messaging;

import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.InvalidEventException;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.VolumeReleased;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

class OutgoingEventsTest {
    private static final EventMeta CAUSED = new EventMeta("e-2", 1, Instant.parse("2026-11-30T06:00:00Z"),
            "req-1", "e-1");

    @Test
    void valueIsTheEventJsonKeyTheAssetIdAndHeadersTheCloudEventsAttributes() {
        VolumeReleased event = VolumeReleased.of(CAUSED, "req-1", "/hot/speech", "local", 3, 30);

        Message<byte[]> message = OutgoingEvents.message(event, "/stowage/provider-adapter");

        assertThat(message.getPayload()).isEqualTo(EventCodec.encode(event));
        assertThat(EventCodec.decode(VolumeReleased.class, message.getPayload())).isEqualTo(event);
        OutgoingKafkaRecordMetadata<?> kafka = message.getMetadata(OutgoingKafkaRecordMetadata.class).orElseThrow();
        assertThat(kafka.getKey()).isEqualTo("release/req-1").isEqualTo(event.assetId());
        assertThat(kafka.getTopic()).isNull();
        assertThat(kafka.getHeaders().toArray()).extracting(Header::key, OutgoingEventsTest::utf8).containsExactly(
                tuple("ce_specversion", "1.0"),
                tuple("ce_id", "e-2"),
                tuple("ce_source", "/stowage/provider-adapter"),
                tuple("ce_type", "io.stowage.volume.released.v1"),
                tuple("ce_time", "2026-11-30T06:00:00Z"),
                tuple("ce_subject", "release/req-1"),
                tuple("content-type", "application/json"),
                tuple("ce_correlationid", "req-1"),
                tuple("ce_causationid", "e-1"));
    }

    @Test
    void aFirstEventHasNoCausationHeader() {
        EventMeta first = new EventMeta("e-1", 1, Instant.parse("2026-11-30T05:59:00Z"), "req-1", null);
        ReleaseRequested event = ReleaseRequested.of(first, "req-1", "/hot/speech", true, "ops");

        OutgoingKafkaRecordMetadata<?> kafka = OutgoingEvents.message(event, "/stowage/cli")
                .getMetadata(OutgoingKafkaRecordMetadata.class).orElseThrow();

        assertThat(kafka.getKey()).isEqualTo("release/req-1");
        assertThat(kafka.getHeaders().toArray()).extracting(Header::key)
                .contains("ce_id", "ce_correlationid").doesNotContain("ce_causationid");
        assertThat(utf8(kafka.getHeaders().lastHeader("ce_source"))).isEqualTo("/stowage/cli");
        assertThat(utf8(kafka.getHeaders().lastHeader("ce_type"))).isEqualTo("io.stowage.volume.release.requested.v1");
    }

    @Test
    void anInvalidEventIsRefusedBeforeAnyMessageExists() {
        VolumeReleased invalid = new VolumeReleased(CAUSED, "req-1", "/hot/speech", " ", 3, 30);

        assertThatThrownBy(() -> OutgoingEvents.message(invalid, "/stowage/provider-adapter"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("provider");
    }

    private static String utf8(Header header) {
        return new String(header.value(), StandardCharsets.UTF_8);
    }
}
