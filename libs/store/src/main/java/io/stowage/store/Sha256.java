package io.stowage.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 in the form every Stowage content address uses: 64 lower-case hex digits. */
public final class Sha256 {
    private static final int BUFFER = 1 << 20;

    private Sha256() {
    }

    /** @return a fresh SHA-256 digest (always present on a Java platform) */
    public static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** @return the digest as 64 lower-case hex digits (the digest is reset) */
    public static String hex(MessageDigest digest) {
        return HexFormat.of().formatHex(digest.digest());
    }

    /** @return SHA-256 of {@code bytes}, hex */
    public static String of(byte[] bytes) {
        MessageDigest digest = newDigest();
        digest.update(bytes);
        return hex(digest);
    }

    /**
     * Hashes a file as it is now, streaming it in 1 MiB reads.
     *
     * @return SHA-256 of the file's content, hex
     * @throws UncheckedIOException when the file cannot be read
     */
    public static String of(Path file) {
        MessageDigest digest = newDigest();
        byte[] buffer = new byte[BUFFER];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return hex(digest);
    }
}
