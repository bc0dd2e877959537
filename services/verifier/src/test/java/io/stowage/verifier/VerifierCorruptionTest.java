package io.stowage.verifier;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.Sha256;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.stack.StowageStackResource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Corrupted, truncated and missing objects against the real Kafka broker and S3Proxy: the corrupted object is written
 * straight into the bucket, and {@code object.uploaded} describes the original bytes and SHA-256. Each case is the
 * first shard of its asset, so it gets a HEAD and a FULL_READ result (ranged: the test profile reads objects above
 * 1 MiB as 1 MiB ranged GETs).
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class VerifierCorruptionTest {
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;
    @ConfigProperty(name = "stowage.store.primary.endpoint")
    URI endpoint;
    @ConfigProperty(name = "stowage.store.primary.access-key-id")
    String accessKey;
    @ConfigProperty(name = "stowage.store.primary.secret-access-key")
    String secretKey;

    StoreAndTopics stack;
    final String name = "c" + UUID.randomUUID().toString().substring(0, 8);
    final byte[] original = random(3 * (1 << 20) + 999);
    final String originalSha = Sha256.of(original);
    final String key = "datasets/" + name + "/r1/shards/" + originalSha + ".tar.zst";

    @BeforeEach
    void open() {
        stack = new StoreAndTopics(bootstrap, endpoint, accessKey, secretKey);
    }

    @AfterEach
    void close() {
        stack.close();
    }

    @Test
    void oneFlippedByteKeepsHeadOkButTheFullReadIsAMismatchWithBothDigests() throws Exception {
        byte[] flipped = original.clone();
        flipped[(1 << 20) + 12_345] ^= 0x01; // in the second ranged part
        stack.put(key, flipped, originalSha);
        double mismatches = metric("stowage_verifier_results_total", "method=\"FULL_READ\",result=\"MISMATCH\",store=\"primary\"");
        double reread = metric("stowage_verifier_reread_bytes_total", "store=\"primary\"");

        List<ObjectVerified> results = stack.results(stack.publishShard(name, key, original.length, originalSha), 2);
        assertThat(metric("stowage_verifier_results_total", "method=\"FULL_READ\",result=\"MISMATCH\",store=\"primary\"")
                - mismatches).as("full-read mismatches on /q/metrics").isEqualTo(1);
        assertThat(metric("stowage_verifier_reread_bytes_total", "store=\"primary\"") - reread)
                .as("bytes re-read on /q/metrics").isEqualTo(original.length);

        assertThat(results).extracting(ObjectVerified::method, ObjectVerified::result, ObjectVerified::expectedBytes,
                ObjectVerified::expectedSha256, ObjectVerified::actualBytes, ObjectVerified::actualSha256).containsExactly(
                tuple(VerifyMethod.HEAD, VerifyResult.OK, (long) original.length, originalSha, (long) original.length,
                        originalSha),
                tuple(VerifyMethod.FULL_READ, VerifyResult.MISMATCH, (long) original.length, originalSha,
                        (long) original.length, Sha256.of(flipped)));
        assertThat(results.get(1).detail()).isEqualTo("recomputed sha256 " + Sha256.of(flipped) + ", expected "
                + originalSha + "; full read: first of asset");
    }

    @Test
    void aTruncatedObjectIsAHeadMismatchOnItsSize() throws Exception {
        byte[] truncated = Arrays.copyOf(original, original.length - 1000);
        stack.put(key, truncated, originalSha);

        List<ObjectVerified> results = stack.results(stack.publishShard(name, key, original.length, originalSha), 2);

        assertThat(results).extracting(ObjectVerified::method, ObjectVerified::result, ObjectVerified::expectedBytes,
                ObjectVerified::actualBytes, ObjectVerified::actualSha256).containsExactly(
                tuple(VerifyMethod.HEAD, VerifyResult.MISMATCH, (long) original.length, (long) truncated.length,
                        originalSha),
                tuple(VerifyMethod.FULL_READ, VerifyResult.MISMATCH, (long) original.length, (long) truncated.length,
                        Sha256.of(truncated)));
        assertThat(results.get(0).detail()).isEqualTo("size " + truncated.length + " bytes, expected " + original.length);
    }

    @Test
    void aMissingObjectIsMissingForHeadAndFullRead() throws Exception {
        ObjectUploaded uploaded = stack.publishShard(name, key, original.length, originalSha);

        List<ObjectVerified> results = stack.results(uploaded, 2);

        assertThat(results).extracting(ObjectVerified::method, ObjectVerified::result, ObjectVerified::expectedBytes,
                ObjectVerified::expectedSha256, ObjectVerified::actualBytes, ObjectVerified::actualSha256).containsExactly(
                tuple(VerifyMethod.HEAD, VerifyResult.MISSING, (long) original.length, originalSha, -1L, null),
                tuple(VerifyMethod.FULL_READ, VerifyResult.MISSING, (long) original.length, originalSha, -1L, null));
        assertThat(results.get(0).detail()).isEqualTo("no object at primary:stowage-primary/" + key);
    }

    @Test
    void sha256MetadataThatDisagreesWithTheContentIsAHeadMismatch() throws Exception {
        String wrongMetadata = Sha256.of("not the content".getBytes());
        stack.put(key, original, wrongMetadata);

        List<ObjectVerified> results = stack.results(stack.publishShard(name, key, original.length, originalSha), 2);

        assertThat(results).extracting(ObjectVerified::method, ObjectVerified::result, ObjectVerified::expectedSha256,
                ObjectVerified::actualSha256).containsExactly(
                tuple(VerifyMethod.HEAD, VerifyResult.MISMATCH, originalSha, wrongMetadata),
                tuple(VerifyMethod.FULL_READ, VerifyResult.OK, originalSha, originalSha)); // the bytes are intact
        assertThat(results.get(0).detail()).isEqualTo("sha256 metadata " + wrongMetadata + ", expected " + originalSha);
    }

    @Test
    void theUploadOfAReplicaCopyAlsoReReadsThePrimaryCopyAndFindsItsFlippedByte() throws Exception {
        String checkpointKey = "checkpoints/" + name + "/run/000000000010/" + originalSha + "/model.bin";
        byte[] flipped = original.clone();
        flipped[7] ^= (byte) 0x80;
        stack.put(StoreAndTopics.REPLICA_BUCKET, checkpointKey, original, originalSha);
        stack.put(StoreAndTopics.BUCKET, checkpointKey, flipped, originalSha);

        List<ObjectVerified> results = stack.results(
                stack.publishReplicaCheckpointFile(name, checkpointKey, original.length, originalSha), 3);

        assertThat(results).extracting(ObjectVerified::store, ObjectVerified::bucket, ObjectVerified::method,
                ObjectVerified::result, ObjectVerified::actualSha256, ObjectVerified::detail).containsExactly(
                tuple("replica", "stowage-replica", VerifyMethod.HEAD, VerifyResult.OK, originalSha, null),
                tuple("replica", "stowage-replica", VerifyMethod.FULL_READ, VerifyResult.OK, originalSha,
                        "full read: replica copy of a key checkpoint"),
                tuple("primary", "stowage-primary", VerifyMethod.FULL_READ, VerifyResult.MISMATCH, Sha256.of(flipped),
                        "recomputed sha256 " + Sha256.of(flipped) + ", expected " + originalSha
                                + "; full read: primary copy of a key checkpoint"));
        assertThat(results).allMatch(r -> r.key().equals(checkpointKey) && r.expectedSha256().equals(originalSha));
    }

    private static byte[] random(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    /** @return the value of one Prometheus series on {@code /q/metrics} (labels in name order), 0 before any */
    static double metric(String name, String labels) {
        String text = io.restassured.RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
        for (String line : text.split("\n")) {
            if (line.startsWith(name + "{" + labels)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }
}
