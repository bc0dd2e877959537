package io.stowage.gatekeeper.storage;

import io.stowage.gatekeeper.domain.StoreLook;
import io.stowage.stack.EmbeddedStack;
import io.stowage.stack.StackEndpoints;
import io.stowage.store.StoreConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The gate's HEADs against the embedded stack's real S3 server: present, missing, resized, re-tagged, unknown store. */
class StoreHeadsTest {
    static StackEndpoints stack;
    static S3Client s3;
    static StoreHeads heads;
    final String prefix = "gate-heads/" + UUID.randomUUID() + "/";

    @BeforeAll
    static void start() {
        stack = EmbeddedStack.shared();
        s3 = S3Client.builder().endpointOverride(URI.create(stack.s3Endpoint())).region(Region.of(stack.s3Region()))
                .forcePathStyle(true).credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(stack.s3AccessKey(), stack.s3SecretKey()))).build();
        heads = new StoreHeads(List.of(config("primary", stack.primaryBucket()), config("replica", stack.replicaBucket())),
                4, 2, Duration.ofSeconds(30));
    }

    static StoreConfig config(String name, String bucket) {
        return new StoreConfig(name, URI.create(stack.s3Endpoint()), stack.s3Region(), bucket, stack.s3AccessKey(),
                stack.s3SecretKey());
    }

    @AfterAll
    static void stop() {
        heads.close();
        s3.close();
    }

    void put(String bucket, String key, String body, String sha256) {
        s3.putObject(b -> b.bucket(bucket).key(key).metadata(sha256 == null ? Map.of() : Map.of("sha256", sha256)),
                RequestBody.fromString(body));
    }

    @Test
    void answersEachObjectAsTheStoreHoldsItNow() {
        String sha = "a".repeat(64);
        put(stack.primaryBucket(), prefix + "kept", "12345", sha);
        put(stack.primaryBucket(), prefix + "untagged", "123", null);
        put(stack.replicaBucket(), prefix + "kept", "12345", sha);
        StoreLook.StoredObject kept = new StoreLook.StoredObject("primary", prefix + "kept", 5, sha);
        StoreLook.StoredObject untagged = new StoreLook.StoredObject("primary", prefix + "untagged", 3, sha);
        StoreLook.StoredObject gone = new StoreLook.StoredObject("primary", prefix + "never-written", 5, sha);
        StoreLook.StoredObject replica = new StoreLook.StoredObject("replica", prefix + "kept", 5, sha);
        StoreLook.StoredObject unknown = new StoreLook.StoredObject("tape", prefix + "kept", 5, sha);

        Map<StoreLook.StoredObject, StoreLook.Seen> seen = heads.head(List.of(kept, untagged, gone, replica, unknown, kept));

        assertThat(seen).hasSize(5);
        assertThat(seen.get(kept)).isEqualTo(StoreLook.Seen.present(5, sha));
        assertThat(seen.get(untagged)).isEqualTo(StoreLook.Seen.present(3, null));
        assertThat(seen.get(gone)).isEqualTo(StoreLook.Seen.missing());
        assertThat(seen.get(replica)).isEqualTo(StoreLook.Seen.present(5, sha));
        assertThat(seen.get(unknown).state()).isEqualTo(StoreLook.State.UNREACHABLE);
    }

    @Test
    void aFullReadAnswersWhatTheStoreSendsNotItsMetadata() {
        String recorded = io.stowage.events.Sha256.of("12345".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        // the same size and the recorded sha256 metadata over other bytes: what a HEAD cannot tell from the upload
        put(stack.primaryBucket(), prefix + "flipped", "12845", recorded);
        put(stack.primaryBucket(), prefix + "intact", "12345", recorded);
        StoreLook.StoredObject flipped = new StoreLook.StoredObject("primary", prefix + "flipped", 5, recorded);
        StoreLook.StoredObject intact = new StoreLook.StoredObject("primary", prefix + "intact", 5, recorded);
        StoreLook.StoredObject gone = new StoreLook.StoredObject("primary", prefix + "never-written", 5, recorded);
        StoreLook.StoredObject unknown = new StoreLook.StoredObject("tape", prefix + "intact", 5, recorded);

        assertThat(heads.head(List.of(flipped)).get(flipped)).as("the HEAD sees the upload's metadata")
                .isEqualTo(StoreLook.Seen.present(5, recorded));
        Map<StoreLook.StoredObject, StoreLook.Seen> read = heads.readInFull(List.of(flipped, intact, gone, unknown));

        assertThat(read.get(flipped)).isEqualTo(StoreLook.Seen.present(5,
                io.stowage.events.Sha256.of("12845".getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        assertThat(read.get(intact)).isEqualTo(StoreLook.Seen.present(5, recorded));
        assertThat(read.get(gone)).isEqualTo(StoreLook.Seen.missing());
        assertThat(read.get(unknown).state()).isEqualTo(StoreLook.State.UNREACHABLE);
    }

    @Test
    void aStoreThatDoesNotAnswerIsUnreachableNotMissing() {
        StoreConfig closed = new StoreConfig("primary", URI.create("http://127.0.0.1:1"), "us-east-1", "b", "k", "s");
        try (StoreHeads nowhere = new StoreHeads(List.of(closed), 2, 1, Duration.ofSeconds(30))) {
            StoreLook.StoredObject object = new StoreLook.StoredObject("primary", "x", 1, "b".repeat(64));

            StoreLook.Seen seen = nowhere.head(List.of(object)).get(object);

            assertThat(seen.state()).isEqualTo(StoreLook.State.UNREACHABLE);
            assertThat(seen.detail()).isNotBlank();
        }
    }

    @Test
    void aServerThatAcceptsButNeverAnswersIsUnreachableWithinTheLooksBound() throws Exception {
        // a paused store: the connection is accepted (the kernel's backlog), no byte ever comes back
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            StoreConfig paused = new StoreConfig("primary", URI.create("http://127.0.0.1:" + silent.getLocalPort()),
                    "us-east-1", "b", "k", "s");
            try (StoreHeads heads = new StoreHeads(List.of(paused), 2, 1, Duration.ofMillis(800))) {
                List<StoreLook.StoredObject> objects = List.of(new StoreLook.StoredObject("primary", "x", 1, "c".repeat(64)),
                        new StoreLook.StoredObject("primary", "y", 1, "c".repeat(64)),
                        new StoreLook.StoredObject("primary", "z", 1, "c".repeat(64)));
                long started = System.nanoTime();

                Map<StoreLook.StoredObject, StoreLook.Seen> seen = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                        Duration.ofSeconds(20), () -> heads.head(objects));

                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
                assertThat(seen.values()).hasSize(3).allSatisfy(s -> {
                    assertThat(s.state()).isEqualTo(StoreLook.State.UNREACHABLE);
                    assertThat(s.detail()).contains("no answer from the store for 800 ms");
                });
            }
        }
    }

    @Test
    void aStoreThatKeepsAnsweringIsWaitedForPastTheBoundAndASilentOneOnlyUntilTheBoundAfterItsLastAnswer()
            throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(1);
        try {
            // one HEAD at a time, each answered after 150 ms: 6 answers take ~900 ms, three times the 300 ms bound
            java.util.concurrent.CompletionService<StoreLook.Seen> steady =
                    new java.util.concurrent.ExecutorCompletionService<>(pool);
            Map<java.util.concurrent.Future<StoreLook.Seen>, StoreLook.StoredObject> asked = new java.util.LinkedHashMap<>();
            for (int i = 0; i < 6; i++) {
                asked.put(steady.submit(() -> {
                    Thread.sleep(150);
                    return StoreLook.Seen.present(1, null);
                }), new StoreLook.StoredObject("primary", "k" + i, 1, "d".repeat(64)));
            }
            long started = System.nanoTime();

            Map<StoreLook.StoredObject, StoreLook.Seen> seen = StoreHeads.collect(steady, asked, Duration.ofMillis(300));

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThan(Duration.ofMillis(600));
            assertThat(seen).hasSize(6).allSatisfy((o, s) -> assertThat(s.state()).isEqualTo(StoreLook.State.PRESENT));

            // then the store falls silent after two answers: the rest are unreachable 300 ms after the second
            java.util.concurrent.CountDownLatch never = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CompletionService<StoreLook.Seen> silent =
                    new java.util.concurrent.ExecutorCompletionService<>(pool);
            Map<java.util.concurrent.Future<StoreLook.Seen>, StoreLook.StoredObject> stalled = new java.util.LinkedHashMap<>();
            for (int i = 0; i < 4; i++) {
                boolean answers = i < 2;
                stalled.put(silent.submit(() -> {
                    if (!answers) {
                        never.await();
                    }
                    return StoreLook.Seen.present(1, null);
                }), new StoreLook.StoredObject("primary", "s" + i, 1, "d".repeat(64)));
            }
            started = System.nanoTime();

            Map<StoreLook.StoredObject, StoreLook.Seen> cut = StoreHeads.collect(silent, stalled, Duration.ofMillis(300));

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
            assertThat(cut.values()).extracting(StoreLook.Seen::state).containsExactly(StoreLook.State.PRESENT,
                    StoreLook.State.PRESENT, StoreLook.State.UNREACHABLE, StoreLook.State.UNREACHABLE);
        } finally {
            pool.shutdownNow();
        }
    }
}
