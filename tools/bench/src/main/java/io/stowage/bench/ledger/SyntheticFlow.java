package io.stowage.bench.ledger;

import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * Publishes a synthetic but realistic event stream to the real broker: assets of {@value #PER_ASSET} events each,
 * a shard.built, then object.uploaded and object.verified (HEAD) pairs for distinct keys, keyed by asset id with
 * the CloudEvents headers, as the services publish them. Event {@code i} is the same on every run but its id.
 */
final class SyntheticFlow {
    /** Events per asset. */
    static final int PER_ASSET = 100;
    private static final String SHA = "d".repeat(64);

    private SyntheticFlow() {
    }

    /** @return the asset id of asset number {@code a} */
    static String assetId(int a) {
        return "dataset/bench-" + a + "/r1";
    }

    /** @return the local root of asset number {@code a} */
    static String localRoot(int a) {
        return "/data/bench/bench-" + a;
    }

    /** Publishes {@code count} events and waits for every acknowledgement. */
    static void publish(String bootstrapServers, int count) throws Exception {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 20, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()))) {
            Instant t0 = Instant.now();
            for (int i = 0; i < count; i++) {
                StowageEvent event = event(i, t0.plusMillis(i));
                ProducerRecord<String, byte[]> record = new ProducerRecord<>(event.topic(), event.assetId(), EventCodec.encode(event));
                CloudEventHeaders.of(event, "/stowage/bench").forEach((k, v) -> record.headers().add(k, v.getBytes(StandardCharsets.UTF_8)));
                producer.send(record);
            }
            producer.flush();
        }
    }

    private static StowageEvent event(int i, Instant time) {
        int a = i / PER_ASSET;
        int j = i % PER_ASSET;
        String asset = assetId(a);
        EventMeta meta = new EventMeta(UUID.randomUUID().toString(), 1, time, asset, null);
        if (j == 0) {
            return ShardBuilt.of(meta, "bench-" + a, "r1", 0, localRoot(a), "/staging/bench-" + a + "/0.tar.zst", 4096, SHA,
                    "/staging/bench-" + a + "/0.members.jsonl", 100, SHA, 10, 4000);
        }
        String key = "datasets/bench-" + a + "/r1/shards/" + ((j + 1) / 2) + ".tar.zst";
        if (j % 2 == 1) {
            return ObjectUploaded.of(meta, asset, "primary", "stowage-primary", key, ObjectKind.SHARD, 4096, SHA, "etag",
                    "/staging/bench-" + a + "/" + j + ".tar.zst", false);
        }
        return ObjectVerified.of(meta, asset, "primary", "stowage-primary", key, ObjectKind.SHARD, VerifyMethod.HEAD,
                VerifyResult.OK, 4096, SHA, 4096, SHA, null);
    }
}
