package io.stowage.verifier;

import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.Topics;
import io.stowage.stack.KafkaProbe;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.S3Clients;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import static io.stowage.stack.KafkaProbe.header;

/**
 * What a verifier test does around the service: writes objects straight into the primary bucket with the S3
 * SDK (any bytes, any {@code sha256} metadata), publishes {@code object.uploaded} and waits for the
 * {@code object.verified} results it caused.
 */
final class StoreAndTopics implements AutoCloseable {
    static final String BUCKET = "stowage-primary";
    static final String REPLICA_BUCKET = "stowage-replica";
    final KafkaProbe kafka;
    final S3AsyncClient s3;

    StoreAndTopics(String bootstrap, URI endpoint, String accessKey, String secretKey) {
        kafka = new KafkaProbe(bootstrap);
        s3 = S3Clients.create(new StoreConfig("primary", endpoint, "us-east-1", BUCKET, accessKey, secretKey));
    }

    /** Writes {@code content} at {@code key} with {@code sha256Metadata} as its sha256 user metadata. */
    void put(String key, byte[] content, String sha256Metadata) {
        put(BUCKET, key, content, sha256Metadata);
    }

    /** Writes {@code content} at {@code key} of {@code bucket} with {@code sha256Metadata} as its sha256 user metadata. */
    void put(String bucket, String key, byte[] content, String sha256Metadata) {
        s3.putObject(b -> b.bucket(bucket).key(key).metadata(Map.of("sha256", sha256Metadata)),
                AsyncRequestBody.fromBytes(content)).join();
    }

    /** @return the published event: the shard of {@code dataset/<name>/r1} at {@code key} with these bytes and SHA-256 */
    ObjectUploaded publishShard(String name, String key, long bytes, String sha256) throws Exception {
        ObjectUploaded event = ObjectUploaded.of(EventMeta.first("flow-" + name, Clock.systemUTC()),
                "dataset/" + name + "/r1", "primary", BUCKET, key, ObjectKind.SHARD, bytes, sha256, "etag",
                "/staging/" + name, false);
        kafka.send(Topics.OBJECT_UPLOADED, event.assetId(), EventCodec.encode(event));
        return event;
    }

    /** @return the published event: a file of key checkpoint {@code checkpoint/<name>/run/...10} in the replica store */
    ObjectUploaded publishReplicaCheckpointFile(String name, String key, long bytes, String sha256) throws Exception {
        ObjectUploaded event = ObjectUploaded.of(EventMeta.first("flow-" + name, Clock.systemUTC()),
                "checkpoint/" + name + "/run/000000000010", "replica", REPLICA_BUCKET, key, ObjectKind.CHECKPOINT_FILE,
                bytes, sha256, "etag", "/runs/" + name + "/step-10/model.bin", false);
        kafka.send(Topics.OBJECT_UPLOADED, event.assetId(), EventCodec.encode(event));
        return event;
    }

    /** @return the first {@code count} records of {@code object.verified} caused by {@code cause}, in order */
    List<ConsumerRecord<String, byte[]>> records(ObjectUploaded cause, int count) {
        return kafka.await(Topics.OBJECT_VERIFIED,
                r -> cause.meta().eventId().equals(header(r, CloudEventHeaders.CAUSATION_ID)), count);
    }

    /** @return the decoded results caused by {@code cause}, HEAD first */
    List<ObjectVerified> results(ObjectUploaded cause, int count) {
        return records(cause, count).stream().map(r -> EventCodec.decode(ObjectVerified.class, r.value())).toList();
    }

    @Override
    public void close() {
        s3.close();
    }
}
