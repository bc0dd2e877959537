package io.stowage.stack;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * Reads {@code stack-versions.properties}, filled in by Maven at build time: the S3Proxy version and jar
 * path, the local Maven repository and the PostgreSQL binaries version.
 */
final class StackVersions {
    private static final Properties VALUES = load();

    private StackVersions() {
    }

    /** @return the value of {@code key}, or {@code fallback} when the file or the key is missing */
    static String get(String key, String fallback) {
        return VALUES.getProperty(key, fallback);
    }

    private static Properties load() {
        Properties properties = new Properties();
        try (InputStream in = StackVersions.class.getResourceAsStream("stack-versions.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read stack-versions.properties", e);
        }
        return properties;
    }
}
