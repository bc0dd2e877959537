package io.stowage.store.s3;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import io.stowage.events.Sha256;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.ObjectHead;
import io.stowage.store.ReadResult;
import io.stowage.store.StoreConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.headRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link S3ObjectReader#readAndHash(String, ObjectHead)} after the caller's own HEAD, against the stack's real S3Proxy
 * behind a counting HTTP proxy (WireMock, every request passed through): a small object costs one GET and no second
 * HEAD, the result is what the GET read even when the object changed since that HEAD, and a large object is HEADed
 * again so that its ranged GETs are checked against a fresh ETag, never the caller's.
 */
@ExtendWith(StowageStackExtension.class)
class ReadAfterHeadTest {
    /** Objects above 1 MiB are read as ranged GETs of 3 MiB + 17 bytes. */
    private static final ReadTuning SMALL_PARTS = new ReadTuning(1 << 20, (3 << 20) + 17, 4);
    private static WireMockServer proxy;
    private static S3ObjectStore direct;
    private static S3ObjectReader reader;
    private final String prefix = "read-after-head/" + UUID.randomUUID() + "/";
    @TempDir
    Path dir;

    @BeforeAll
    static void open(StackEndpoints stack) {
        proxy = S3Proxying.passThrough(stack.s3Endpoint());
        direct = new S3ObjectStore(new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(),
                stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey()), UploadTuning.defaults());
        reader = new S3ObjectReader(new StoreConfig("primary", S3Proxying.endpoint(proxy),
                stack.s3Region(), stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey()), SMALL_PARTS,
                HttpBackend.APACHE);
    }

    @AfterAll
    static void close() {
        reader.close();
        direct.close();
        proxy.stop();
    }

    @BeforeEach
    void forgetRequests() {
        proxy.resetRequests();
    }

    @Test
    void aSmallObjectSeenByTheCallersHeadIsReadWithOneGetAndNoHead() throws Exception {
        byte[] content = random(300_000, 1);
        String key = put("small.bin", content);
        ObjectHead seen = reader.head(key).orElseThrow();
        proxy.resetRequests();

        assertThat(reader.readAndHash(key, seen)).isEqualTo(new ReadResult(content.length, Sha256.of(content)));
        assertThat(count(headRequestedFor(urlPathMatching(".*/small\\.bin")))).isZero();
        assertThat(count(getRequestedFor(urlPathMatching(".*/small\\.bin")))).isEqualTo(1);

        assertThat(reader.readAndHash(key)).as("without the caller's HEAD, a HEAD and a GET")
                .isEqualTo(new ReadResult(content.length, Sha256.of(content)));
        assertThat(count(headRequestedFor(urlPathMatching(".*/small\\.bin")))).isEqualTo(1);
    }

    @Test
    void theResultIsWhatTheGetReadNotWhatTheHeadSaid() throws Exception {
        byte[] before = random(1_000, 2);
        String key = put("replaced.bin", before);
        ObjectHead seen = reader.head(key).orElseThrow();
        byte[] after = random((3 << 20) + 5, 3); // replaced since the HEAD, and now above the ranged threshold
        put("replaced.bin", after);

        assertThat(reader.readAndHash(key, seen)).isEqualTo(new ReadResult(after.length, Sha256.of(after)));
    }

    @Test
    void aLargeObjectIsHeadedAgainAndItsRangesCheckedAgainstTheFreshEtag() throws Exception {
        byte[] before = random((2 << 20) + 1, 4);
        String key = put("large.bin", before);
        ObjectHead seen = reader.head(key).orElseThrow();
        byte[] after = random((5 << 20) + 3, 5); // replaced since the caller's HEAD: its ETag is stale
        put("large.bin", after);
        proxy.resetRequests();

        assertThat(reader.readAndHash(key, seen)).isEqualTo(new ReadResult(after.length, Sha256.of(after)));
        assertThat(count(headRequestedFor(urlPathMatching(".*/large\\.bin")))).isEqualTo(1);
        assertThat(count(getRequestedFor(urlPathMatching(".*/large\\.bin")))).as("two ranges of 3 MiB + 17 bytes")
                .isEqualTo(2);
    }

    private int count(RequestPatternBuilder pattern) {
        return proxy.findAll(pattern).size();
    }

    private String put(String name, byte[] content) throws Exception {
        Path file = dir.resolve(name + "-" + content.length);
        Files.write(file, content);
        String key = prefix + name;
        direct.put(key, file, content.length, Sha256.of(content), Map.of());
        return key;
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
