package io.stowage.store;

import io.stowage.events.Sha256;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The behaviour every object store implementation must show, run against a real server by each
 * subclass. Subclasses give a writer whose multipart threshold is below 20 MiB and a reader of the
 * same bucket.
 */
public abstract class ObjectStoreConformance {
    @TempDir
    protected Path dir;
    protected final String prefix = "conformance/" + UUID.randomUUID() + "/";

    /** @return a writer that uploads files of 20 MiB as multipart uploads */
    protected abstract ObjectWriter writer();

    /** @return a reader of the writer's bucket */
    protected abstract ObjectReader reader();

    @Test
    void putThenHeadReadAndListGiveBytesAndSha256() throws Exception {
        byte[] content = random(70_001, 1);
        Path file = write(content);
        String key = prefix + "small.bin";

        PutResult put = writer().put(key, file, content.length, Sha256.of(content), Map.of());

        assertThat(put.multipart()).isFalse();
        assertThat(put.sha256()).isEqualTo(Sha256.of(content));
        ObjectHead head = reader().head(key).orElseThrow();
        assertThat(head.bytes()).isEqualTo(70_001);
        assertThat(head.sha256()).isEqualTo(Sha256.of(content));
        assertThat(head.etag()).isEqualTo(put.etag()).doesNotContain("\"");
        assertThat(reader().readAndHash(key)).isEqualTo(new ReadResult(70_001, Sha256.of(content)));
        assertThat(reader().list(prefix)).containsExactly(key);
        assertThat(writer().head(key)).contains(head);
    }

    @Test
    void anEmptyObjectIsWrittenHeadedAndReadWithTheEmptySha256() throws Exception {
        String key = prefix + "empty.bin";
        String emptySha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        writer().put(key, write(new byte[0]), 0, emptySha256, Map.of());

        assertThat(reader().head(key).orElseThrow().bytes()).isZero();
        assertThat(reader().readAndHash(key)).isEqualTo(new ReadResult(0, emptySha256));
    }

    @Test
    void aMissingKeyIsNotFoundNotAnError() {
        String key = prefix + "absent.bin";
        assertThat(reader().head(key)).isEmpty();
        assertThat(writer().head(key)).isEmpty();
        assertThatThrownBy(() -> reader().readAndHash(key)).isInstanceOf(ObjectNotFoundException.class)
                .hasMessageContaining(key);
        assertThat(reader().list(prefix + "nothing/")).isEmpty();
    }

    @Test
    void aLargeFileGoesUpAsAMultipartUploadWithTheWholeFilesSha256() throws Exception {
        byte[] content = random((20 << 20) + 12_345, 2);
        Path file = write(content);
        String key = prefix + "large.bin";

        PutResult put = writer().put(key, file, content.length, Sha256.of(content), Map.of());

        assertThat(put.multipart()).isTrue();
        assertThat(reader().head(key).orElseThrow().sha256()).isEqualTo(Sha256.of(content));
        assertThat(reader().readAndHash(key)).isEqualTo(new ReadResult(content.length, Sha256.of(content)));
        assertThat(writer().abortIncompleteUploads(key)).isZero();
    }

    @Test
    void aFileThatNoLongerMatchesItsSha256IsRefusedAndLeavesNothing() throws Exception {
        for (int size : new int[]{1_000, (20 << 20) + 7}) {
            byte[] described = random(size, 3);
            byte[] now = described.clone();
            now[size / 2] ^= 1;
            Path file = write(now);
            String key = prefix + "changed-" + size + ".bin";

            assertThatThrownBy(() -> writer().put(key, file, size, Sha256.of(described), Map.of()))
                    .isInstanceOfSatisfying(SourceChangedException.class, e -> {
                        assertThat(e.expectedSha256()).isEqualTo(Sha256.of(described));
                        assertThat(e.actualSha256()).isEqualTo(Sha256.of(now));
                    });
            assertThat(reader().head(key)).isEmpty();
            assertThat(writer().abortIncompleteUploads(key)).isZero();
        }
    }

    @Test
    void aFileThatGrewIsRefused() throws Exception {
        byte[] described = random(4_096, 4);
        byte[] now = random(4_100, 4);
        Path file = write(now);
        String key = prefix + "grew.bin";

        assertThatThrownBy(() -> writer().put(key, file, described.length, Sha256.of(described), Map.of()))
                .isInstanceOfSatisfying(SourceChangedException.class,
                        e -> assertThat(e.actualBytes()).isEqualTo(4_100));
        assertThat(reader().head(key)).isEmpty();
    }

    @Test
    void putOverTheSameContentIsIdempotent() throws Exception {
        byte[] content = random(10_000, 5);
        Path file = write(content);
        String key = prefix + "twice.bin";
        writer().put(key, file, content.length, Sha256.of(content), Map.of("kind", "SHARD"));
        writer().put(key, file, content.length, Sha256.of(content), Map.of("kind", "SHARD"));
        assertThat(reader().readAndHash(key).sha256()).isEqualTo(Sha256.of(content));
        assertThat(reader().list(prefix)).containsExactly(key);
    }

    protected Path write(byte[] content) throws Exception {
        Path file = Files.createTempFile(dir, "object", ".bin");
        Files.write(file, content);
        return file;
    }

    protected static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
