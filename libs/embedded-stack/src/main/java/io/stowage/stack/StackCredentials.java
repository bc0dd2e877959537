package io.stowage.stack;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The credentials one {@link EmbeddedStack} start gives its servers: S3Proxy's single identity (access key id and
 * secret access key) and the password of the PostgreSQL role {@code stowage}. {@link #random()} makes fresh ones
 * for every start (the default); a test passes recognisable values (the secrets canary) to find them again.
 *
 * @param s3AccessKey S3 access key id: 16–128 ASCII letters, digits, {@code -}, {@code _} or {@code .}
 * @param s3SecretKey S3 secret access key: same alphabet and length
 * @param pgPassword  password of the role {@code stowage}: same alphabet and length (it is inlined in
 *                    {@code ALTER ROLE}, which takes no bind parameters, so the alphabet is checked here)
 */
public record StackCredentials(String s3AccessKey, String s3SecretKey, String pgPassword) {
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._-]{16,128}");

    /** @throws IllegalArgumentException naming the field (never its value) when a value is outside the alphabet or length */
    public StackCredentials {
        check("s3AccessKey", s3AccessKey);
        check("s3SecretKey", s3SecretKey);
        check("pgPassword", pgPassword);
    }

    /** @return fresh credentials from {@link java.security.SecureRandom}: access key {@code stowage-} + 16 hex, secret 40 hex, password 32 hex */
    public static StackCredentials random() {
        return new StackCredentials("stowage-" + Secrets.random(8), Secrets.random(20), Secrets.random(16));
    }

    private static void check(String field, String value) {
        Objects.requireNonNull(value, field);
        if (!SAFE.matcher(value).matches()) {
            throw new IllegalArgumentException(field + " must be 16-128 ASCII letters, digits, '-', '_' or '.'");
        }
    }

    /** @return the record with every value masked, fit for a log line */
    @Override
    public String toString() {
        return "StackCredentials[****]";
    }
}
