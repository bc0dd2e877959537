package io.stowage.events;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A lease travels as a {@code checkpoint.pinned} with {@code leaseUntil}; a pin written before leases still decodes. */
class CheckpointLeaseTest {
    private static final Instant T = Instant.parse("2026-12-04T03:00:00Z");
    private static final Clock CLOCK = Clock.fixed(T, ZoneOffset.UTC);

    @Test
    void aLeaseRoundTripsAndSaysItIsOne() {
        CheckpointPinned lease = CheckpointPinned.lease(EventMeta.first("checkpoint/exp/run/100", CLOCK), "exp", "run", 100,
                "trainer", T.plusSeconds(3600));
        CheckpointPinned decoded = (CheckpointPinned) EventCodec.decode(Topics.CHECKPOINT_PINNED, EventCodec.encode(lease));
        assertThat(decoded).isEqualTo(lease);
        assertThat(decoded.isLease()).isTrue();
        assertThat(decoded.pinned()).isTrue();
        assertThat(decoded.leaseUntil()).isEqualTo(T.plusSeconds(3600));
    }

    @Test
    void aPinWrittenBeforeLeasesDecodesAsAPin() {
        String old = "{\"meta\":{\"eventId\":\"e1\",\"schemaVersion\":1,\"time\":\"2026-12-01T00:00:00Z\","
                + "\"correlationId\":\"checkpoint/exp/run/7\",\"causationId\":null},\"experiment\":\"exp\",\"run\":\"run\","
                + "\"step\":7,\"pinned\":false,\"requestedBy\":\"ops\"}";
        CheckpointPinned decoded = (CheckpointPinned) EventCodec.decode(Topics.CHECKPOINT_PINNED,
                old.getBytes(StandardCharsets.UTF_8));
        assertThat(decoded.isLease()).isFalse();
        assertThat(decoded.pinned()).isFalse();
    }

    @Test
    void aLeaseThatWouldUnpinOrEndsBeforeItBeginsIsRefused() {
        EventMeta meta = EventMeta.first("checkpoint/exp/run/100", CLOCK);
        assertThatThrownBy(() -> new CheckpointPinned(meta, "exp", "run", 100, false, "trainer", T.plusSeconds(60)).validate())
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("pinned must be true");
        assertThatThrownBy(() -> CheckpointPinned.lease(meta, "exp", "run", 100, "trainer", T))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("leaseUntil must be after");
    }
}
