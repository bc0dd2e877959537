package io.stowage.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the S3Proxy jar-with-dependencies: system property {@code stowage.s3proxy.jar}, environment
 * variable {@code STOWAGE_S3PROXY_JAR}, the build's copy named in {@code stack-versions.properties},
 * or the local Maven repository.
 */
final class S3ProxyJar {
    private S3ProxyJar() {
    }

    /**
     * @return the first of the candidate paths that is a regular file
     * @throws IOException naming every place that was tried when none is
     */
    static Path locate() throws IOException {
        List<String> candidates = new ArrayList<>();
        candidates.add(System.getProperty("stowage.s3proxy.jar"));
        candidates.add(System.getenv("STOWAGE_S3PROXY_JAR"));
        candidates.add(StackVersions.get("s3proxy.build.jar", null));
        String version = StackVersions.get("s3proxy.version", "4.1.0");
        String repo = StackVersions.get("maven.repo.local", System.getProperty("user.home") + "/.m2/repository");
        candidates.add(repo + "/org/gaul/s3proxy/" + version + "/s3proxy-" + version + "-jar-with-dependencies.jar");
        for (String candidate : candidates) {
            if (candidate != null && !candidate.isBlank() && Files.isRegularFile(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        throw new IOException("S3Proxy jar-with-dependencies not found; set -Dstowage.s3proxy.jar=... or STOWAGE_S3PROXY_JAR, "
                + "or run `./mvnw -B install -DskipTests -pl libs/embedded-stack -am` in this checkout (tried " + candidates + ")");
    }
}
