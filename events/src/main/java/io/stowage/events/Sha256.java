package io.stowage.events;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 in the form every Stowage content address uses: consumes bytes, a file or a running digest, produces 64
 * lower-case hex digits (the form {@link Validation#requireSha256} accepts). Pure JDK, so every module can hash the
 * same way without a copy of this code.
 */
public final class Sha256 {
    /** Bytes read at a time by {@link #of(Path, OpenOption...)}: 1 MiB, so the digest, not the read calls, sets the pace. */
    public static final int FILE_BUFFER_BYTES = 1 << 20;

    private static final HexFormat HEX = HexFormat.of();
    /**
     * Read buffers of {@link #of(Path, OpenOption...)} kept for the next file: a loop over many small files (an
     * inventory of a directory, a checkpoint's files) would otherwise allocate and zero 1 MiB per file, which on a small
     * heap is a humongous allocation each time. At most this many are kept (4 MiB), shared by every thread.
     */
    private static final int KEPT_BUFFERS = 4;
    private static final java.util.concurrent.ArrayBlockingQueue<byte[]> BUFFERS =
            new java.util.concurrent.ArrayBlockingQueue<>(KEPT_BUFFERS);

    private Sha256() {
    }

    /**
     * @return a fresh SHA-256 digest, to feed with {@code update} while the bytes stream past
     * @throws IllegalStateException never on a conforming Java platform (every one has SHA-256)
     */
    public static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** @return the SHA-256 of what {@code digest} was fed, 64 lower-case hex digits; completes (resets) the digest */
    public static String hex(MessageDigest digest) {
        return HEX.formatHex(digest.digest());
    }

    /** @return the SHA-256 of {@code bytes}, 64 lower-case hex digits */
    public static String of(byte[] bytes) {
        return HEX.formatHex(newDigest().digest(bytes));
    }

    /**
     * @return true when {@code value} is a content address: exactly 64 lower-case hex digits (null, upper case or
     *         another length is not)
     */
    public static boolean isHex(String value) {
        if (value == null || value.length() != 64) {
            return false;
        }
        for (int i = 0; i < 64; i++) {
            char c = value.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /**
     * Hashes a file as it is now, streaming it in {@link #FILE_BUFFER_BYTES} reads (never the whole file in memory).
     *
     * @param options how to open it, e.g. {@link java.nio.file.LinkOption#NOFOLLOW_LINKS} to refuse a symlink
     * @return the SHA-256 of the file's content, 64 lower-case hex digits
     * @throws IOException when the file cannot be opened or read
     */
    public static String of(Path file, OpenOption... options) throws IOException {
        MessageDigest digest = newDigest();
        byte[] buffer = BUFFERS.poll();
        if (buffer == null) {
            buffer = new byte[FILE_BUFFER_BYTES];
        }
        try (InputStream in = Files.newInputStream(file, options)) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
        } finally {
            BUFFERS.offer(buffer); // kept for the next file unless KEPT_BUFFERS are kept already
        }
        return hex(digest);
    }
}
