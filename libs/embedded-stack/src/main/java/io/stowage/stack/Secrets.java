package io.stowage.stack;

import java.security.SecureRandom;
import java.util.HexFormat;

/** Produces random credentials (hex text) for the servers of one stack start. */
final class Secrets {
    private static final SecureRandom RANDOM = new SecureRandom();

    private Secrets() {
    }

    /** @return {@code bytes} random bytes as lower-case hex ({@code 2 * bytes} characters) */
    static String random(int bytes) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return HexFormat.of().formatHex(value);
    }
}
