package io.stowage.provideradapter.domain;

import io.stowage.events.CloudEventHeaders;
import io.stowage.events.GateSignature;

import java.util.Optional;

/**
 * Decides whether a gate decision record was signed by the gatekeeper: takes the record's raw value
 * bytes and its {@link CloudEventHeaders#SIGNATURE} header, returns why it is not authentic (or
 * nothing when it is). Without a valid key every record is refused: the adapter fails closed.
 */
public final class DecisionAuthenticator {
    private final GateSignature signature;
    private final String keyProblem;

    private DecisionAuthenticator(GateSignature signature, String keyProblem) {
        this.signature = signature;
        this.keyProblem = keyProblem;
    }

    /**
     * @param key {@code stowage.gate.signing-key}; missing or shorter than 32 bytes makes an authenticator that refuses all
     */
    public static DecisionAuthenticator of(Optional<String> key) {
        try {
            return new DecisionAuthenticator(new GateSignature(key.orElse(null)), null);
        } catch (IllegalArgumentException e) {
            return new DecisionAuthenticator(null, "stowage.gate.signing-key is not set to a valid key ("
                    + e.getMessage() + ")");
        }
    }

    /** @return the reason the configured key cannot authenticate anything, empty when it can */
    public Optional<String> keyProblem() {
        return Optional.ofNullable(keyProblem);
    }

    /**
     * @param value        the record's value exactly as received
     * @param headerValue  the UTF-8 value of the signature header, null when absent
     * @return empty when {@code headerValue} is the HMAC of {@code value}, else one line saying why not
     */
    public Optional<String> problem(byte[] value, String headerValue) {
        if (keyProblem != null) {
            return Optional.of(keyProblem);
        }
        if (headerValue == null) {
            return Optional.of("no " + CloudEventHeaders.SIGNATURE + " header");
        }
        if (!signature.verifies(value, headerValue)) {
            return Optional.of(CloudEventHeaders.SIGNATURE + " does not match the record (forged or altered)");
        }
        return Optional.empty();
    }
}
