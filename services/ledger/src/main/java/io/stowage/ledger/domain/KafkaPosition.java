package io.stowage.ledger.domain;

import java.time.Instant;
import java.util.Map;

/**
 * Where and how one Kafka record arrived: its topic, partition and offset, record key, record
 * timestamp and headers (decoded as UTF-8 strings; a repeated header keeps its last value).
 */
public record KafkaPosition(String topic, int partition, long offset, String key, Instant timestamp,
                            Map<String, String> headers) {
    public KafkaPosition {
        headers = Map.copyOf(headers);
    }

    /** @return the header's value, or null when absent */
    public String header(String name) {
        return headers.get(name);
    }
}
