package io.stowage.store.s3;

import io.stowage.events.Sha256;
import io.stowage.store.SourceChangedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HashingSourceTest {
    @TempDir
    Path dir;

    @Test
    void hashesEachPartAndTheWholeFileInOrder() throws Exception {
        Path file = write("0123456789");
        try (HashingSource source = new HashingSource(file, 10, Sha256.of("0123456789".getBytes()))) {
            assertThat(source.hashNext(4)).isEqualTo(Sha256.of("0123".getBytes()));
            assertThat(source.position()).isEqualTo(4);
            assertThat(source.hashNext(6)).isEqualTo(Sha256.of("456789".getBytes()));
            assertThat(source.remaining()).isZero();
            assertThat(source.finish()).isEqualTo("84d89877f0d4041efb6bf91a16f0248f2fd573e6af05c19f96bedb9f882f7882");
        }
    }

    @Test
    void hashesPartsThatSpanSeveralBuffers() throws Exception {
        byte[] content = new byte[HashingSource.BUFFER_BYTES * 5 / 2 + 7];
        new java.util.Random(3).nextBytes(content);
        Path file = Files.write(dir.resolve("big.bin"), content);
        int first = HashingSource.BUFFER_BYTES * 3 / 2;
        try (HashingSource source = new HashingSource(file, content.length, Sha256.of(content))) {
            assertThat(source.hashNext(first)).isEqualTo(Sha256.of(java.util.Arrays.copyOfRange(content, 0, first)));
            assertThat(source.hashNext(content.length - first))
                    .isEqualTo(Sha256.of(java.util.Arrays.copyOfRange(content, first, content.length)));
            assertThat(source.finish()).isEqualTo(Sha256.of(content));
        }
    }

    @Test
    void refusesSameSizeDifferentContentNamingBothDigests() throws Exception {
        Path file = write("0123456789");
        String expected = Sha256.of("abcdefghij".getBytes());
        String actual = Sha256.of(file);
        try (HashingSource source = new HashingSource(file, 10, expected)) {
            source.hashNext(10);
            assertThatThrownBy(source::finish).isInstanceOfSatisfying(SourceChangedException.class, e -> {
                assertThat(e.expectedSha256()).isEqualTo(expected);
                assertThat(e.actualSha256()).isEqualTo(actual);
                assertThat(e.getMessage()).contains(file.toString(), expected, actual);
            });
        }
    }

    @Test
    void refusesAFileThatShrankOrGrew() throws Exception {
        Path shorter = write("01234");
        try (HashingSource source = new HashingSource(shorter, 10, Sha256.of("0123456789".getBytes()))) {
            assertThatThrownBy(() -> source.hashNext(10)).isInstanceOfSatisfying(SourceChangedException.class,
                    e -> assertThat(e.actualBytes()).isEqualTo(5));
        }
        Path longer = write("0123456789AB");
        try (HashingSource source = new HashingSource(longer, 10, Sha256.of("0123456789".getBytes()))) {
            source.hashNext(10);
            assertThatThrownBy(source::finish).isInstanceOfSatisfying(SourceChangedException.class, e -> {
                assertThat(e.actualBytes()).isEqualTo(12);
                assertThat(e.actualSha256()).isEqualTo(Sha256.of("0123456789AB".getBytes()));
            });
        }
    }

    private Path write(String content) throws Exception {
        Path file = Files.createTempFile(dir, "src", ".bin");
        Files.writeString(file, content, StandardCharsets.US_ASCII);
        return file;
    }
}
