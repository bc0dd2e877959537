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
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

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

    /** How many times a record whose send failed is sent again before the benchmark gives up. */
    private static final int RESENDS = 5;

    /**
     * Publishes {@code count} events and waits for every acknowledgement. A record whose send failed (on a loaded
     * machine a just-started broker can leave a batch unacknowledged past {@code delivery.timeout.ms}) is sent
     * again, as the same event with the same id, up to {@value #RESENDS} times; the ledger stores an event id once,
     * so a record that reached the broker twice still counts once. Every send's outcome is read: {@code flush}
     * alone does not report a failed one, which once left the ledger one event short with nothing said.
     *
     * @return the topics written, each with how many of the events it acknowledged
     * @throws IllegalStateException when a record still fails after the resends; the message names the last failure
     */
    static Map<String, Long> publish(String bootstrapServers, int count) throws Exception {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 20, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()))) {
            Instant t0 = Instant.now();
            List<ProducerRecord<String, byte[]>> pending = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                StowageEvent event = event(i, t0.plusMillis(i));
                ProducerRecord<String, byte[]> record = new ProducerRecord<>(event.topic(), event.assetId(), EventCodec.encode(event));
                CloudEventHeaders.of(event, "/stowage/bench").forEach((k, v) -> record.headers().add(k, v.getBytes(StandardCharsets.UTF_8)));
                pending.add(record);
            }
            Map<String, Long> perTopic = new TreeMap<>();
            for (int round = 0; !pending.isEmpty(); round++) {
                List<Future<RecordMetadata>> sent = new ArrayList<>(pending.size());
                pending.forEach(r -> sent.add(producer.send(r)));
                producer.flush();
                List<ProducerRecord<String, byte[]>> failed = new ArrayList<>();
                Throwable last = null;
                for (int i = 0; i < sent.size(); i++) {
                    try {
                        perTopic.merge(sent.get(i).get().topic(), 1L, Long::sum);
                    } catch (ExecutionException e) {
                        failed.add(pending.get(i));
                        last = e.getCause();
                    }
                }
                if (!failed.isEmpty()) {
                    if (round == RESENDS) {
                        throw new IllegalStateException(failed.size() + " of " + count + " events still unacknowledged after "
                                + RESENDS + " resends: " + last, last);
                    }
                    System.out.printf("  %d of %d sends failed (%s); sending them again%n", failed.size(), pending.size(), last);
                }
                pending = failed;
            }
            return perTopic;
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
