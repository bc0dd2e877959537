package io.stowage.store.s3;

import io.stowage.events.Sha256;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.PutResult;
import io.stowage.store.ReadResult;
import io.stowage.store.SourceChangedException;
import io.stowage.store.StoreAccessException;
import io.stowage.store.StoreConfig;
import io.stowage.store.TransientStoreException;
import io.stowage.store.UploadObserver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * In-process checks of the resumable multipart upload, the age-based abort and the start-up probe,
 * against the stack's S3Proxy.
 */
@ExtendWith(StowageStackExtension.class)
class ResumableUploadTest {
    private static final int PART = UploadTuning.MIN_PART_SIZE;
    private static StackEndpoints stack;
    private static StoreConfig config;
    private static S3AsyncClient raw;

    @TempDir
    Path dir;

    @BeforeAll
    static void open(StackEndpoints endpoints) {
        stack = endpoints;
        config = new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(), stack.primaryBucket(),
                stack.s3AccessKey(), stack.s3SecretKey());
        raw = S3Clients.create(config);
    }

    @AfterAll
    static void close() {
        raw.close();
    }

    private S3ObjectStore store(UploadObserver observer, Clock clock) {
        return new S3ObjectStore(config, new UploadTuning(PART, PART, 2), ReadTuning.defaults(),
                dir.resolve("journals"), observer, clock);
    }

    @Test
    void aTransientFailureKeepsTheUploadAndTheRetrySendsOnlyTheMissingParts() throws Exception {
        byte[] content = random(6 * PART + 1234, 1);
        Path file = Files.write(dir.resolve("a.bin"), content);
        String key = "resume/" + UUID.randomUUID() + "/a.bin";
        List<Integer> sent = new CopyOnWriteArrayList<>();
        UploadObserver failAtPart4 = new UploadObserver() {
            @Override
            public void beforePart(String k, String uploadId, int part) {
                if (part == 4) {
                    throw new TransientStoreException("connection reset (simulated)", null);
                }
            }

            @Override
            public void partSent(String k, String uploadId, int part, long bytes) {
                sent.add(part);
            }
        };
        try (S3ObjectStore store = store(failAtPart4, Clock.systemUTC())) {
            assertThatThrownBy(() -> store.put(key, file, content.length, Sha256.of(content), Map.of()))
                    .isInstanceOf(TransientStoreException.class);
            assertThat(sent).containsExactlyInAnyOrder(1, 2, 3);
            assertThat(uploadsOf(key)).hasSize(1);
            assertThat(Files.exists(store.journalFile(key))).isTrue();
        }
        List<Integer> resent = new CopyOnWriteArrayList<>();
        try (S3ObjectStore store = store(recorder(resent), Clock.systemUTC())) {
            PutResult result = store.put(key, file, content.length, Sha256.of(content), Map.of());
            assertThat(resent).containsExactlyInAnyOrder(4, 5, 6, 7);
            assertThat(result.sha256()).isEqualTo(Sha256.of(content));
            assertThat(store.readAndHash(key)).isEqualTo(new ReadResult(content.length, Sha256.of(content)));
            assertThat(uploadsOf(key)).isEmpty();
            assertThat(Files.exists(store.journalFile(key))).isFalse();
        }
    }

    @Test
    void aFileChangedInAPartAlreadySentIsRefusedAndTheUploadAborted() throws Exception {
        byte[] content = random(4 * PART, 2);
        Path file = Files.write(dir.resolve("b.bin"), content);
        String key = "resume/" + UUID.randomUUID() + "/b.bin";
        UploadObserver failAtPart3 = new UploadObserver() {
            @Override
            public void beforePart(String k, String uploadId, int part) {
                if (part == 3) {
                    throw new TransientStoreException("timeout (simulated)", null);
                }
            }
        };
        try (S3ObjectStore store = store(failAtPart3, Clock.systemUTC())) {
            assertThatThrownBy(() -> store.put(key, file, content.length, Sha256.of(content), Map.of()))
                    .isInstanceOf(TransientStoreException.class);
        }
        byte[] changed = content.clone();
        changed[10] ^= 1; // in part 1, which the store already holds
        Files.write(file, changed);
        try (S3ObjectStore store = store(UploadObserver.NONE, Clock.systemUTC())) {
            assertThatThrownBy(() -> store.put(key, file, content.length, Sha256.of(content), Map.of()))
                    .isInstanceOf(SourceChangedException.class).hasMessageContaining("part 1");
            assertThat(store.head(key)).isEmpty();
            assertThat(uploadsOf(key)).isEmpty();
            assertThat(Files.exists(store.journalFile(key))).isFalse();
        }
    }

    @Test
    void aPartChangedBetweenHashingAndSendingIsNeverJournaledAndTheFileIsRefused() throws Exception {
        byte[] content = random(4 * PART + 99, 4);
        Path file = Files.write(dir.resolve("c.bin"), content);
        String key = "resume/" + UUID.randomUUID() + "/c.bin";
        List<Integer> sent = new CopyOnWriteArrayList<>();
        UploadObserver changePart3 = new UploadObserver() {
            @Override
            public void beforePart(String k, String uploadId, int part) {
                if (part == 3) { // part 3 was just hashed; one of its bytes changes (in place) before it is streamed
                    await().atMost(Duration.ofSeconds(60)).until(() -> sent.containsAll(List.of(1, 2)));
                    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                        channel.write(ByteBuffer.wrap(new byte[] {(byte) (content[2 * PART + 5] ^ 1)}), 2L * PART + 5);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }

            @Override
            public void partSent(String k, String uploadId, int part, long bytes) {
                sent.add(part);
            }
        };
        try (S3ObjectStore store = store(changePart3, Clock.systemUTC())) {
            assertThatThrownBy(() -> store.put(key, file, content.length, Sha256.of(content), Map.of()))
                    .isInstanceOf(SourceChangedException.class).hasMessageContaining("part 3, while it was sent");
            assertThat(sent).doesNotContain(3);
            assertThat(store.head(key)).isEmpty();
            assertThat(uploadsOf(key)).isEmpty();
            assertThat(Files.exists(store.journalFile(key))).isFalse();
        }
    }

    @Test
    void anEmptyFileIsOnePlainPut() throws Exception {
        Path file = Files.write(dir.resolve("empty.bin"), new byte[0]);
        String key = "resume/" + UUID.randomUUID() + "/empty.bin";
        List<Integer> parts = new CopyOnWriteArrayList<>();
        try (S3ObjectStore store = new S3ObjectStore(config, new UploadTuning(1, PART, 2), ReadTuning.defaults(),
                dir.resolve("journals"), recorder(parts), Clock.systemUTC())) {
            PutResult result = store.put(key, file, 0, Sha256.of(new byte[0]), Map.of());
            assertThat(result.multipart()).isFalse();
            assertThat(parts).isEmpty();
            assertThat(store.head(key).orElseThrow().bytes()).isZero();
            assertThat(store.head(key).orElseThrow().sha256()).isEqualTo(Sha256.of(new byte[0]));
        }
    }

    @Test
    void uploadsOlderThanTheConfiguredAgeAreAbortedAndYoungerOnesKept() {
        String old = "resume/" + UUID.randomUUID() + "/old.bin";
        String oldId = raw.createMultipartUpload(b -> b.bucket(config.bucket()).key(old)).join().uploadId();
        Instant created = uploadsOf(old).get(0).initiated();
        Clock twoHoursLater = Clock.fixed(created.plus(Duration.ofHours(2)), ZoneOffset.UTC);
        try (S3ObjectStore store = store(UploadObserver.NONE, twoHoursLater)) {
            assertThat(store.abortUploadsOlderThan(Duration.ofHours(3))).isZero();
            assertThat(uploadsOf(old)).extracting(MultipartUpload::uploadId).containsExactly(oldId);
            assertThat(store.abortUploadsOlderThan(Duration.ofHours(1))).isGreaterThanOrEqualTo(1);
            assertThat(uploadsOf(old)).isEmpty();
        }
    }

    @Test
    void aWrongEndpointAMissingBucketOrRefusedCredentialsFailTheProbeWithOneLine() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        StoreConfig wrongEndpoint = new StoreConfig("primary", URI.create("http://127.0.0.1:" + closedPort),
                config.region(), config.bucket(), config.accessKeyId(), config.secretAccessKey());
        StoreConfig noBucket = new StoreConfig("replica", config.endpoint(), config.region(), "no-such-bucket-" + closedPort,
                config.accessKeyId(), config.secretAccessKey());
        StoreConfig badSecret = new StoreConfig("primary", config.endpoint(), config.region(), config.bucket(),
                config.accessKeyId(), "not-the-secret");
        probeFails(wrongEndpoint, "store primary (http://127.0.0.1:" + closedPort + ", bucket " + config.bucket()
                + "): endpoint unreachable");
        probeFails(noBucket, "store replica (" + config.endpoint() + ", bucket no-such-bucket-" + closedPort
                + "): bucket does not exist (HTTP 404)");
        probeFails(badSecret, "store primary (" + config.endpoint() + ", bucket " + config.bucket()
                + "): credentials refused (HTTP 403)");
        try (S3ObjectStore good = new S3ObjectStore(config, UploadTuning.defaults())) {
            good.probe();
        }
    }

    private static void probeFails(StoreConfig bad, String expectedStart) {
        try (S3ObjectStore store = new S3ObjectStore(bad, UploadTuning.defaults())) {
            assertThatThrownBy(store::probe).isInstanceOf(StoreAccessException.class)
                    .satisfies(e -> {
                        assertThat(e.getMessage()).startsWith(expectedStart).doesNotContain("\n")
                                .doesNotContain(bad.secretAccessKey());
                    });
        }
    }

    private static UploadObserver recorder(List<Integer> parts) {
        return new UploadObserver() {
            @Override
            public void partSent(String k, String uploadId, int part, long bytes) {
                parts.add(part);
            }
        };
    }

    private static List<MultipartUpload> uploadsOf(String key) {
        return raw.listMultipartUploads(b -> b.bucket(config.bucket()).prefix(key)).join().uploads().stream()
                .filter(u -> u.key().equals(key)).toList();
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
