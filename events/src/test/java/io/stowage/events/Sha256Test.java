package io.stowage.events;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The content-address helper against the FIPS 180-2 test vectors, for bytes, streamed digests and files. */
class Sha256Test {
    static final String EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    static final String ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    /** SHA-256 of "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq" (FIPS 180-2, appendix B.2). */
    static final String TWO_BLOCKS = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
    /** SHA-256 of one million times 'a' (FIPS 180-2, appendix B.3). */
    static final String MILLION_A = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";

    @TempDir
    Path tmp;

    @Test
    void bytesGiveTheKnownVectors() {
        assertThat(Sha256.of(new byte[0])).isEqualTo(EMPTY);
        assertThat(Sha256.of("abc".getBytes(StandardCharsets.US_ASCII))).isEqualTo(ABC);
        assertThat(Sha256.of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
                .getBytes(StandardCharsets.US_ASCII))).isEqualTo(TWO_BLOCKS);
    }

    @Test
    void aDigestFedInPiecesGivesTheSameHexAndIsResetAfterwards() {
        MessageDigest digest = Sha256.newDigest();
        digest.update((byte) 'a');
        digest.update("bc".getBytes(StandardCharsets.US_ASCII));
        assertThat(Sha256.hex(digest)).isEqualTo(ABC);
        assertThat(Sha256.hex(digest)).isEqualTo(EMPTY);
        assertThat(Sha256.newDigest()).isNotSameAs(Sha256.newDigest());
    }

    @Test
    void aFileLongerThanTheBufferStreamsToTheKnownVector() throws IOException {
        byte[] millionA = new byte[1_000_000];
        Arrays.fill(millionA, (byte) 'a');
        Path file = Files.write(tmp.resolve("a.bin"), millionA);
        Path twoBuffers = Files.write(tmp.resolve("b.bin"), new byte[2 * Sha256.FILE_BUFFER_BYTES + 3]);

        assertThat(Sha256.of(file)).isEqualTo(MILLION_A);
        assertThat(Sha256.of(twoBuffers)).isEqualTo(Sha256.of(new byte[2 * Sha256.FILE_BUFFER_BYTES + 3]));
        assertThat(Sha256.of(Files.write(tmp.resolve("empty"), new byte[0]))).isEqualTo(EMPTY);
    }

    @Test
    void aMissingFileOrARefusedSymlinkIsAnIOException() throws IOException {
        Path target = Files.write(tmp.resolve("target"), "abc".getBytes(StandardCharsets.US_ASCII));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), target);

        assertThat(Sha256.of(link)).isEqualTo(ABC);
        assertThatThrownBy(() -> Sha256.of(link, LinkOption.NOFOLLOW_LINKS)).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> Sha256.of(tmp.resolve("missing"))).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void filesHashedFromManyThreadsAtOnceThroughTheKeptBuffersGiveEachItsOwnDigest() throws Exception {
        // a long file read before a short one through the same kept buffer leaves its bytes beyond the short one's end
        int[] sizes = {0, 1, 3, 4_095, 65_536, Sha256.FILE_BUFFER_BYTES - 1, Sha256.FILE_BUFFER_BYTES,
            Sha256.FILE_BUFFER_BYTES + 7, 2 * Sha256.FILE_BUFFER_BYTES + 5};
        java.util.Map<Path, String> expected = new java.util.LinkedHashMap<>();
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < sizes.length; i++) {
            byte[] content = new byte[sizes[i]];
            random.nextBytes(content);
            expected.put(Files.write(tmp.resolve("f" + i), content), Sha256.of(content));
        }
        java.util.List<Path> files = new java.util.ArrayList<>(expected.keySet());
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            java.util.List<java.util.concurrent.Future<java.util.List<String>>> wrong = new java.util.ArrayList<>();
            for (int t = 0; t < 8; t++) {
                long seed = t;
                wrong.add(threads.submit(() -> {
                    java.util.List<String> mismatches = new java.util.ArrayList<>();
                    java.util.Random order = new java.util.Random(seed);
                    for (int i = 0; i < 300; i++) {
                        Path file = files.get(order.nextInt(files.size()));
                        String actual = Sha256.of(file);
                        if (!actual.equals(expected.get(file))) {
                            mismatches.add(file.getFileName() + " " + actual);
                        }
                    }
                    return mismatches;
                }));
            }
            for (var result : wrong) {
                assertThat(result.get()).isEmpty();
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void onlySixtyFourLowerCaseHexDigitsAreAContentAddress() {
        assertThat(Sha256.isHex(EMPTY)).isTrue();
        assertThat(Sha256.isHex(ABC)).isTrue();
        assertThat(Sha256.isHex(null)).isFalse();
        assertThat(Sha256.isHex("")).isFalse();
        assertThat(Sha256.isHex(ABC.toUpperCase())).isFalse();
        assertThat(Sha256.isHex(ABC.substring(1))).isFalse();
        assertThat(Sha256.isHex(ABC + "0")).isFalse();
        assertThat(Sha256.isHex(ABC.substring(1) + "g")).isFalse();
        assertThat(Sha256.isHex(ABC.substring(1) + "/")).isFalse();
        assertThat(Sha256.isHex(ABC.substring(1) + ":")).isFalse();
        assertThat(Sha256.isHex(ABC.substring(1) + "`")).isFalse();
    }
}
