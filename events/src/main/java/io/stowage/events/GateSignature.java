package io.stowage.events;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * Authenticates gate decisions: the gatekeeper signs the exact value bytes of a {@code gate.passed}
 * record with HMAC-SHA256 under a key shared with the provider-adapter only, and sends the hex MAC in
 * the {@link CloudEventHeaders#SIGNATURE} header; the provider-adapter deletes nothing unless it
 * verifies. The key comes from the secrets mount or the environment, never from the repository.
 */
public final class GateSignature {
    /** Keys shorter than this many bytes are refused: a guessable key would make forgery easy. */
    public static final int MIN_KEY_BYTES = 32;
    private final SecretKeySpec key;

    /**
     * @param key the shared signing key (UTF-8), at least {@link #MIN_KEY_BYTES} bytes
     * @throws IllegalArgumentException when the key is missing or too short (the message never contains the key)
     */
    public GateSignature(String key) {
        if (key == null || key.getBytes(StandardCharsets.UTF_8).length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException("the gate signing key is missing or shorter than " + MIN_KEY_BYTES + " bytes");
        }
        this.key = new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    /** @return the hex HMAC-SHA256 of {@code value} */
    public String sign(byte[] value) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return HexFormat.of().formatHex(mac.doFinal(value));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** @return true when {@code signature} is the HMAC of {@code value} (compared in constant time); false for null */
    public boolean verifies(byte[] value, String signature) {
        if (signature == null || value == null) {
            return false;
        }
        return MessageDigest.isEqual(sign(value).getBytes(StandardCharsets.US_ASCII),
                signature.getBytes(StandardCharsets.US_ASCII));
    }
}
