package io.stowage.cli.checkpoint;

import io.stowage.cli.CliException;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** {@link CheckpointFetcher} on an in-memory source whose second object's stream breaks half-way. */
class CheckpointFetcherTest {
    @TempDir
    Path tmp;

    @Test
    void aDownloadThatBreaksNamesTheObjectAndLeavesNoFile() throws Exception {
        byte[] good = "good bytes".getBytes(StandardCharsets.UTF_8);
        String goodKey = ObjectKeys.checkpointFile("e", "r", 4, Sha256.of(good), "a.pt");
        String brokenKey = ObjectKeys.checkpointFile("e", "r", 4, Sha256.of(new byte[100]), "b.pt");
        CheckpointFetcher.Source source = new CheckpointFetcher.Source() {
            @Override
            public List<String> list(String prefix) {
                return List.of(goodKey, brokenKey);
            }

            @Override
            public InputStream open(String key) {
                return key.equals(goodKey) ? new ByteArrayInputStream(good) : new BreakingStream(50);
            }
        };

        Path to = tmp.resolve("to");
        CliException e = catchThrowableOfType(CliException.class, () -> new CheckpointFetcher(source).fetch("e", "r", 4L, to));

        assertThat(e.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(e.getMessage()).isEqualTo("download of " + brokenKey + " broke: connection reset");
        assertThat(to).as("the directory the fetch created is removed again").doesNotExist();
        assertThat(tmp).isDirectory();
    }

    @Test
    void aBrokenDownloadIntoAnEmptyDirectoryThatExistedKeepsItEmpty() throws Exception {
        byte[] good = "good bytes".getBytes(StandardCharsets.UTF_8);
        String goodKey = ObjectKeys.checkpointFile("e", "r", 4, Sha256.of(good), "a.pt");
        String brokenKey = ObjectKeys.checkpointFile("e", "r", 4, Sha256.of(new byte[100]), "b.pt");
        Path to = Files.createDirectories(tmp.resolve("existing"));

        CliException e = catchThrowableOfType(CliException.class, () -> new CheckpointFetcher(source(goodKey, good, brokenKey))
                .fetch("e", "r", 4L, to));

        assertThat(e.exitCode()).isEqualTo(CliException.FAILED);
        try (Stream<Path> all = Files.walk(to)) {
            assertThat(all).as("not ours to remove: kept, and empty").containsExactly(to);
        }
    }

    @Test
    void aStepNotInTheStoreCreatesNoDirectoryAndSaysWhichStep() {
        byte[] good = "good bytes".getBytes(StandardCharsets.UTF_8);
        String goodKey = ObjectKeys.checkpointFile("e", "r", 4, Sha256.of(good), "a.pt");
        Path to = tmp.resolve("new-parent").resolve("to");

        CliException e = catchThrowableOfType(CliException.class, () -> new CheckpointFetcher(source(goodKey, good, goodKey))
                .fetch("e", "r", 50L, to));

        assertThat(e).isInstanceOf(CheckpointFetcher.NotStored.class);
        assertThat(e.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(e.getMessage()).isEqualTo("no step 50 of e/r in the primary store");
        assertThat(tmp.resolve("new-parent")).as("neither the target nor its missing parent is created").doesNotExist();
    }

    /** Lists both keys; serves {@code good} for {@code goodKey} and a stream that breaks after 50 bytes otherwise. */
    private static CheckpointFetcher.Source source(String goodKey, byte[] good, String brokenKey) {
        return new CheckpointFetcher.Source() {
            @Override
            public List<String> list(String prefix) {
                return goodKey.equals(brokenKey) ? List.of(goodKey) : List.of(goodKey, brokenKey);
            }

            @Override
            public InputStream open(String key) {
                return key.equals(goodKey) ? new ByteArrayInputStream(good) : new BreakingStream(50);
            }
        };
    }

    /** Serves {@code bytes} zero bytes, then fails every read (never an endless stream). */
    private static final class BreakingStream extends InputStream {
        private int left;

        BreakingStream(int bytes) {
            this.left = bytes;
        }

        @Override
        public int read() throws IOException {
            if (left == 0) {
                throw new IOException("connection reset");
            }
            left--;
            return 0;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left == 0) {
                throw new IOException("connection reset");
            }
            int n = Math.min(len, left);
            java.util.Arrays.fill(b, off, off + n, (byte) 0);
            left -= n;
            return n;
        }
    }
}
