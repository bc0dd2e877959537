package io.stowage.stack;

import io.stowage.events.EventCodec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Where the servers of a running {@link EmbeddedStack} (or {@link ContainerStack}) are, with the credentials to
 * reach them; turns them into Quarkus configuration, child-process environment variables or a JSON file.
 *
 * @param kafkaBootstrapServers Kafka bootstrap, {@code 127.0.0.1:PORT}
 * @param s3Endpoint            S3Proxy (or MinIO) base URL, {@code http://127.0.0.1:PORT} (path-style addressing)
 * @param s3Region              signing region, {@code us-east-1}
 * @param s3AccessKey           S3 access key id (random per start)
 * @param s3SecretKey           S3 secret access key (random per start)
 * @param primaryBucket         the primary store's bucket, {@code stowage-primary}
 * @param replicaBucket         the replica store's bucket, {@code stowage-replica}
 * @param pgJdbcUrl             {@code jdbc:postgresql://127.0.0.1:PORT/stowage}
 * @param pgReactiveUrl         {@code postgresql://127.0.0.1:PORT/stowage} (Vert.x reactive client)
 * @param pgUser                database role owning the {@code stowage} database
 * @param pgPassword            that role's password (random per start, checked with SCRAM)
 */
public record StackEndpoints(String kafkaBootstrapServers, String s3Endpoint, String s3Region,
        String s3AccessKey, String s3SecretKey, String primaryBucket, String replicaBucket,
        String pgJdbcUrl, String pgReactiveUrl, String pgUser, String pgPassword) {

    /**
     * @return Quarkus configuration for a service under test, in a stable order:
     *         {@code kafka.bootstrap.servers}, {@code stowage.store.primary.endpoint|region|bucket|access-key-id|secret-access-key},
     *         the same under {@code stowage.store.replica.} (same endpoint, replica bucket),
     *         {@code quarkus.datasource.reactive.url}, {@code quarkus.datasource.username}, {@code quarkus.datasource.password}
     */
    public Map<String, String> quarkusConfig() {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("kafka.bootstrap.servers", kafkaBootstrapServers);
        putStore(config, "primary", primaryBucket);
        putStore(config, "replica", replicaBucket);
        config.put("quarkus.datasource.reactive.url", pgReactiveUrl);
        config.put("quarkus.datasource.username", pgUser);
        config.put("quarkus.datasource.password", pgPassword);
        return config;
    }

    private void putStore(Map<String, String> config, String store, String bucket) {
        String prefix = "stowage.store." + store + ".";
        config.put(prefix + "endpoint", s3Endpoint);
        config.put(prefix + "region", s3Region);
        config.put(prefix + "bucket", bucket);
        config.put(prefix + "access-key-id", s3AccessKey);
        config.put(prefix + "secret-access-key", s3SecretKey);
    }

    /**
     * @return {@link #quarkusConfig()} as environment variables for a child process, named by the Quarkus
     *         rule (upper case, every character other than a letter or digit becomes {@code _}), e.g.
     *         {@code STOWAGE_STORE_PRIMARY_ACCESS_KEY_ID}
     */
    public Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        quarkusConfig().forEach((key, value) -> env.put(environmentName(key), value));
        return env;
    }

    /**
     * @param key a configuration key such as {@code stowage.store.primary.access-key-id}
     * @return the environment variable Quarkus reads for it, such as {@code STOWAGE_STORE_PRIMARY_ACCESS_KEY_ID}
     */
    public static String environmentName(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    /**
     * Writes these endpoints as JSON, readable and writable by the owner only because the file holds
     * credentials; replaces an existing file atomically.
     *
     * @param file where to write, e.g. {@code <work dir>/stack.json}; parent directories are created
     * @throws IOException when the file cannot be written
     */
    public void writeTo(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".stack", ".json.tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            EventCodec.mapper().writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), this);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * @param file a file written by {@link #writeTo(Path)}
     * @return the endpoints it holds
     * @throws IOException when the file is missing or is not such JSON
     */
    public static StackEndpoints readFrom(Path file) throws IOException {
        return EventCodec.mapper().readValue(file.toFile(), StackEndpoints.class);
    }

    private static String last2(String value) {
        return value == null || value.length() <= 8 ? "" : value.substring(value.length() - 2);
    }

    /** @return the endpoints with the S3 keys and the database password masked ({@code ****} + last 2 characters of the access key), fit for a log line */
    @Override
    public String toString() {
        return "StackEndpoints[kafka=" + kafkaBootstrapServers + ", s3=" + s3Endpoint + " (" + s3Region + ", "
                + primaryBucket + ", " + replicaBucket + ", key ****" + last2(s3AccessKey) + "), pg=" + pgJdbcUrl
                + " (user " + pgUser + "), secrets masked]";
    }
}
