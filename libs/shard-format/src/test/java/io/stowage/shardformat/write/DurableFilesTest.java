package io.stowage.shardformat.write;

import io.stowage.events.Sha256;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link DurableFiles#writeNew} never replaces a file of other bytes, with hard links and on a filesystem that refuses
 * them (the link step made to fail the way FUSE, SMB and FAT refuse {@code link(2)}; the files are real).
 */
class DurableFilesTest {
    private static final byte[] ONE = "{\"revision\":\"one\"}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] TWO = "{\"revision\":\"two\"}".getBytes(StandardCharsets.UTF_8);

    /** A filesystem without hard links: {@code link(2)} fails with EPERM, as on a FUSE or SMB mount. */
    private static final DurableFiles.Linker NO_LINKS = (target, existing) -> {
        throw new FileSystemException(existing.toString(), target.toString(), "Operation not permitted");
    };
    private static final DurableFiles.Linker UNSUPPORTED = (target, existing) -> {
        throw new UnsupportedOperationException("links");
    };

    @TempDir
    Path dir;

    @Test
    void withHardLinksANewFileIsWrittenTheSameBytesAreANoOpOtherBytesAreRefusedAndKept() throws IOException {
        assertWritesOnceAndRefusesOtherBytes(null);
    }

    @Test
    void withoutHardLinksTheMoveFallbackKeepsTheSameRule() throws IOException {
        assertWritesOnceAndRefusesOtherBytes(NO_LINKS);
        Path other = dir.resolve("unsupported");
        Files.createDirectories(other);
        Path target = other.resolve("manifest.json");
        assertThat(DurableFiles.writeNew(target, ONE, UNSUPPORTED).sha256()).isEqualTo(Sha256.of(ONE));
        assertThatThrownBy(() -> DurableFiles.writeNew(target, TWO, UNSUPPORTED))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readAllBytes(target)).isEqualTo(ONE);
    }

    @Test
    void aFailureOtherThanTheLinkLeavesNoTemporaryFileAndNoTarget() throws IOException {
        Path target = dir.resolve("missing-parent").resolve("manifest.json");
        assertThatThrownBy(() -> DurableFiles.writeNew(target, ONE, NO_LINKS)).isInstanceOf(IOException.class);
        assertThat(target).doesNotExist();
    }

    private void assertWritesOnceAndRefusesOtherBytes(DurableFiles.Linker linker) throws IOException {
        Path sub = Files.createDirectories(dir.resolve(linker == null ? "links" : "no-links"));
        Path target = sub.resolve("manifest.json");
        WrittenFile first = linker == null ? DurableFiles.writeNew(target, ONE) : DurableFiles.writeNew(target, ONE, linker);
        assertThat(first.sha256()).isEqualTo(Sha256.of(ONE));
        assertThat(first.bytes()).isEqualTo(ONE.length);
        assertThat(Files.readAllBytes(target)).isEqualTo(ONE);

        WrittenFile again = linker == null ? DurableFiles.writeNew(target, ONE) : DurableFiles.writeNew(target, ONE, linker);
        assertThat(again.sha256()).as("the same bytes again: a no-op").isEqualTo(Sha256.of(ONE));

        assertThatThrownBy(() -> {
            if (linker == null) {
                DurableFiles.writeNew(target, TWO);
            } else {
                DurableFiles.writeNew(target, TWO, linker);
            }
        }).isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining("holds other bytes (sha256 " + Sha256.of(ONE) + ")");
        assertThat(Files.readAllBytes(target)).as("never replaced").isEqualTo(ONE);
        try (Stream<Path> left = Files.list(sub)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("no temporary file left")
                    .containsExactly("manifest.json");
        }
    }
}
