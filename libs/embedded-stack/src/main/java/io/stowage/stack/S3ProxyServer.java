package io.stowage.stack;

import java.io.IOException;
import java.io.Writer;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * S3Proxy 4.1.0 with its filesystem backend, run as a child JVM from its jar-with-dependencies under a
 * work directory; produces an answering S3 endpoint with random credentials and the given buckets.
 */
final class S3ProxyServer implements AutoCloseable {
    static final String REGION = "us-east-1";

    private final ChildProcess process;
    private final String endpoint;
    private final String accessKey;
    private final String secretKey;

    private S3ProxyServer(ChildProcess process, String endpoint, String accessKey, String secretKey) {
        this.process = process;
        this.endpoint = endpoint;
        this.accessKey = accessKey;
        this.secretKey = secretKey;
    }

    /**
     * Starts S3Proxy (objects under {@code dir/blobs}, log in {@code dir/s3proxy.log}) and returns before it answers.
     *
     * @param accessKey its single identity's access key id
     * @param secretKey that identity's secret access key (written only to {@code dir/s3proxy.properties}, mode 0600)
     * @throws IOException when the S3Proxy jar is not found or the JVM cannot start
     */
    static S3ProxyServer launch(Path dir, String accessKey, String secretKey) throws IOException {
        Files.createDirectories(dir.resolve("blobs"));
        String endpoint = "http://127.0.0.1:" + ChildProcess.freePort();
        Properties p = new Properties();
        p.setProperty("s3proxy.endpoint", endpoint);
        p.setProperty("s3proxy.authorization", "aws-v2-or-v4");
        p.setProperty("s3proxy.identity", accessKey);
        p.setProperty("s3proxy.credential", secretKey);
        p.setProperty("s3proxy.ignore-unknown-headers", "true");
        p.setProperty("jclouds.provider", "filesystem");
        p.setProperty("jclouds.filesystem.basedir", dir.resolve("blobs").toString());
        p.setProperty("jclouds.identity", "local");
        p.setProperty("jclouds.credential", "local");
        p.setProperty("jclouds.regions", REGION);
        Path config = dir.resolve("s3proxy.properties");
        Files.deleteIfExists(config);
        Files.createFile(config, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        try (Writer out = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
            p.store(out, "written by io.stowage.stack.S3ProxyServer");
        }
        List<String> jvm = new ArrayList<>(List.of(System.getProperty("stowage.stack.s3proxy.jvm-options",
                "-Xms32m -Xmx384m -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError").split("\\s+")));
        jvm.addAll(List.of("-jar", S3ProxyJar.locate().toString()));
        ChildProcess child = ChildProcess.start("S3Proxy", ChildProcess.java(jvm, List.of("--properties", config.toString())),
                dir, dir.resolve("s3proxy.log"));
        return new S3ProxyServer(child, endpoint, accessKey, secretKey);
    }

    String endpoint() {
        return endpoint;
    }

    String accessKey() {
        return accessKey;
    }

    String secretKey() {
        return secretKey;
    }

    ChildProcess process() {
        return process;
    }

    /**
     * Waits until S3Proxy answers any HTTP request, then creates {@code buckets} (existing ones are kept).
     *
     * @param timeoutMillis how long to wait for the first answer, in milliseconds
     * @throws IOException when S3Proxy exits or does not answer in time
     */
    void awaitAndCreateBuckets(long timeoutMillis, String... buckets) throws IOException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (!answers()) {
            process.checkAlive();
            if (System.currentTimeMillis() > deadline) {
                throw new IOException("S3Proxy did not answer on " + endpoint + "; last lines of its log:\n" + process.tail(40));
            }
            sleep(50);
        }
        for (String bucket : buckets) {
            S3Buckets.create(endpoint, REGION, accessKey, secretKey, bucket);
        }
    }

    private boolean answers() {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(endpoint + "/").toURL().openConnection();
            connection.setConnectTimeout(200);
            connection.setReadTimeout(2000);
            int status = connection.getResponseCode();
            S3Buckets.readQuietly(status < 400 ? connection.getInputStream() : connection.getErrorStream());
            return status > 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for S3Proxy", e);
        }
    }

    /** Stops S3Proxy; idempotent. */
    @Override
    public void close() {
        process.close();
    }
}
