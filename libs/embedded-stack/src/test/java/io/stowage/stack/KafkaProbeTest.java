package io.stowage.stack;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExtendWith(StowageStackExtension.class)
class KafkaProbeTest {

    @Test
    void sendsRecordsWithHeadersAndFindsThemFromTheStartOfTheTopic(StackEndpoints stack) {
        KafkaProbe probe = new KafkaProbe(stack.kafkaBootstrapServers());
        String key = "probe/" + UUID.randomUUID();
        probe.send("gate.denied.dlq", key, "first".getBytes(StandardCharsets.UTF_8), Map.of("ce_id", "id-1"));
        probe.send("gate.denied.dlq", key, "second".getBytes(StandardCharsets.UTF_8));

        ConsumerRecord<String, byte[]> first = probe.await("gate.denied.dlq", key);
        assertThat(first.value()).asString(StandardCharsets.UTF_8).isEqualTo("first");
        assertThat(KafkaProbe.header(first, "ce_id")).isEqualTo("id-1");
        assertThat(KafkaProbe.header(first, "absent")).isNull();
        assertThat(probe.await("gate.denied.dlq", r -> key.equals(r.key()), 2))
                .extracting(r -> new String(r.value(), StandardCharsets.UTF_8)).containsExactly("first", "second");
        assertThat(probe.keysUpToEnd("gate.denied.dlq")).filteredOn(key::equals).hasSize(2);
    }

    @Test
    void aRecordThatNeverArrivesIsAnAssertionErrorNotAHang(StackEndpoints stack) {
        KafkaProbe probe = new KafkaProbe(stack.kafkaBootstrapServers(), java.time.Duration.ofSeconds(3));
        assertThatThrownBy(() -> probe.await("volume.release.failed.dlq", r -> false, 1))
                .isInstanceOf(AssertionError.class).hasMessageContaining("only 0 of 1");
    }
}
