package io.stowage.store.s3;

import io.stowage.store.Sha256;
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
    void handsOutTheBytesItHashes() throws Exception {
        Path file = write("0123456789");
        try (HashingSource source = new HashingSource(file, 10, Sha256.of("0123456789".getBytes()))) {
            assertThat(new String(source.next(4))).isEqualTo("0123");
            assertThat(new String(source.next(6))).isEqualTo("456789");
            assertThat(source.remaining()).isZero();
            assertThat(source.finish()).isEqualTo("84d89877f0d4041efb6bf91a16f0248f2fd573e6af05c19f96bedb9f882f7882");
        }
    }

    @Test
    void refusesSameSizeDifferentContentNamingBothDigests() throws Exception {
        Path file = write("0123456789");
        String expected = Sha256.of("abcdefghij".getBytes());
        try (HashingSource source = new HashingSource(file, 10, expected)) {
            source.next(10);
            assertThatThrownBy(source::finish).isInstanceOfSatisfying(SourceChangedException.class, e -> {
                assertThat(e.expectedSha256()).isEqualTo(expected);
                assertThat(e.actualSha256()).isEqualTo(Sha256.of(file));
                assertThat(e.getMessage()).contains(file.toString(), expected, Sha256.of(file));
            });
        }
    }

    @Test
    void refusesAFileThatShrankOrGrew() throws Exception {
        Path shorter = write("01234");
        try (HashingSource source = new HashingSource(shorter, 10, Sha256.of("0123456789".getBytes()))) {
            assertThatThrownBy(() -> source.next(10)).isInstanceOfSatisfying(SourceChangedException.class,
                    e -> assertThat(e.actualBytes()).isEqualTo(5));
        }
        Path longer = write("0123456789AB");
        try (HashingSource source = new HashingSource(longer, 10, Sha256.of("0123456789".getBytes()))) {
            source.next(10);
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
