package io.stowage.store.s3;

import com.sun.net.httpserver.HttpServer;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.LifecycleRule;
import io.stowage.store.StoreConfig;
import io.stowage.store.StoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link BucketLifecycleReader} against S3Proxy (which has no lifecycle support) and against recorded
 * GetBucketLifecycleConfiguration answers (test resources {@code lifecycle/}) replayed over HTTP, so the AWS SDK's own
 * parsing of the XML is what is checked.
 */
@ExtendWith(StowageStackExtension.class)
class BucketLifecycleReaderTest {

    @Test
    void s3ProxyAnswersNotImplementedWhichReadsAsNoLifecycleSupport(StackEndpoints stack) {
        StoreConfig config = new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(),
                stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey());
        assertThat(BucketLifecycleReader.read(config)).isEmpty();
    }

    @Test
    void theApiReferenceExampleGivesItsPrefixExpirationAndTransitions() throws IOException {
        LifecycleRule rule = replay(200, "aws-archive-then-delete.xml").orElseThrow().get(0);
        assertThat(rule).isEqualTo(new LifecycleRule("Archive and then delete rule", true, "projectdocs/", false,
                3650, null, null, null, 2));
    }

    @Test
    void anEmptyFilterIsTheWholeBucketAndDisabledIsRead() throws IOException {
        List<LifecycleRule> rules = replay(200, "aws-abort-incomplete.xml").orElseThrow();
        assertThat(rules).containsExactly(
                new LifecycleRule("sample-rule", true, "SomeKeyPrefix/", false, null, null, null, 7, 0),
                new LifecycleRule("expire-everything", false, "", false, 365, null, null, null, 0));
    }

    @Test
    void anAndFilterGivesItsPrefixAndIsNarrowedByTheTag() throws IOException {
        LifecycleRule rule = replay(200, "aws-tag-and-prefix.xml").orElseThrow().get(0);
        assertThat(rule.prefix()).isEqualTo("checkpoints/");
        assertThat(rule.narrowed()).isTrue();
        assertThat(rule.expirationDate()).startsWith("2023-01-01T00:00");
        assertThat(rule.noncurrentExpirationDays()).isEqualTo(2);
        assertThat(rule.expiresObjects()).isTrue();
    }

    @Test
    void r2sDefaultRuleAbortsAfterSevenDaysOverTheWholeBucket() throws IOException {
        assertThat(replay(200, "r2-default-abort.xml").orElseThrow()).containsExactly(
                new LifecycleRule("Default Multipart Abort Rule", true, "", false, null, null, null, 7, 0));
    }

    @Test
    void noConfigurationIsNoRulesAndAnyOtherErrorFails() throws IOException {
        assertThat(replay(404, "no-such-lifecycle.xml")).contains(List.of());
        assertThatThrownBy(() -> replay(403, null)).isInstanceOf(StoreException.class);
    }

    /** Serves one recorded answer to whatever the client asks, then reads the bucket's lifecycle through it. */
    private static Optional<List<LifecycleRule>> replay(int status, String resource) throws IOException {
        byte[] body = resource == null
                ? "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>".getBytes()
                : read(resource);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "application/xml");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        try {
            return BucketLifecycleReader.read(new StoreConfig("primary",
                    URI.create("http://127.0.0.1:" + server.getAddress().getPort()), "us-east-1", "recorded",
                    "access", "secret"));
        } finally {
            server.stop(0);
        }
    }

    private static byte[] read(String resource) throws IOException {
        try (InputStream in = BucketLifecycleReaderTest.class.getResourceAsStream("/lifecycle/" + resource)) {
            return in.readAllBytes();
        }
    }
}
