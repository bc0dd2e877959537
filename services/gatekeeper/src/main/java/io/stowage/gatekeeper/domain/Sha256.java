package io.stowage.gatekeeper.domain;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 of in-memory bytes (manifests), as 64 lower-case hex digits. */
public final class Sha256 {
    private Sha256() {
    }

    /** @return the SHA-256 of {@code bytes} as 64 lower-case hex digits */
    public static String hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
