package io.stowage.store.s3;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import io.stowage.events.Sha256;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.PermanentStoreException;
import io.stowage.store.PreconditionFailedException;
import io.stowage.store.StoreConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How {@link S3ObjectStore#putIfUnchanged} reads the answers of stores that refuse a conditional PUT in other ways than
 * S3Proxy does: an HTTP proxy (WireMock) in front of the stack's real S3Proxy passes every request through, except the
 * conditional PUTs of one key, which it answers as such a store would. A store that does not implement the conditions
 * (501 NotImplemented, or NotImplemented with 400) is an {@link UnsupportedOperationException}, so the caller may write
 * unconditionally; a concurrent conditional write (409 ConditionalRequestConflict, as S3 answers two racing writers)
 * is a {@link PreconditionFailedException}; any other refusal stays a {@link PermanentStoreException}, never a reason to
 * drop the condition. Nothing is written in any of these cases.
 */
@ExtendWith(StowageStackExtension.class)
class ConditionalPutRefusalsTest {
    private static WireMockServer proxy;
    private static S3ObjectStore direct;
    private static S3ObjectStore throughProxy;
    private static String s3Endpoint;
    private final String prefix = "refusals/" + UUID.randomUUID() + "/";
    @TempDir
    Path dir;

    @BeforeAll
    static void open(StackEndpoints stack) {
        proxy = S3Proxying.passThrough(stack.s3Endpoint());
        s3Endpoint = stack.s3Endpoint();
        direct = new S3ObjectStore(config(stack, URI.create(stack.s3Endpoint())), UploadTuning.defaults());
        throughProxy = new S3ObjectStore(config(stack, S3Proxying.endpoint(proxy)), UploadTuning.defaults());
    }

    @AfterAll
    static void close() {
        direct.close();
        throughProxy.close();
        proxy.stop();
    }

    @AfterEach
    void resetProxy() {
        proxy.resetAll();
    }

    private static StoreConfig config(StackEndpoints stack, URI endpoint) {
        return new StoreConfig("primary", endpoint, stack.s3Region(), stack.primaryBucket(), stack.s3AccessKey(),
                stack.s3SecretKey());
    }

    @Test
    void theProxyPassesConditionalPutsThroughUnlessTold() throws Exception {
        passEverythingThrough(URI.create(directEndpoint()));
        String key = prefix + "through.json";
        Path file = write("{\"step\":1}");

        throughProxy.putIfUnchanged(key, file, Files.size(file), Sha256.of(file), Map.of("step", "1"), null);
        String etag = direct.head(key).orElseThrow().etag();
        assertThatThrownBy(() -> throughProxy.putIfUnchanged(key, file, Files.size(file), Sha256.of(file),
                Map.of("step", "2"), null)).as("S3Proxy's own 412 through the proxy")
                .isInstanceOf(PreconditionFailedException.class).hasMessageContaining("HTTP 412");
        throughProxy.putIfUnchanged(key, file, Files.size(file), Sha256.of(file), Map.of("step", "2"), etag);
        assertThat(direct.head(key).orElseThrow().metadata()).containsEntry("step", "2");
    }

    @Test
    void notImplementedWith501IsUnsupportedAndWritesNothing() throws Exception {
        String key = prefix + "501.json";
        refuse(key, 501, "NotImplemented");

        assertThatThrownBy(() -> putIfAbsent(key)).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("does not implement conditional writes: HTTP 501 NotImplemented");
        assertThat(direct.head(key)).isEmpty();
    }

    @Test
    void notImplementedWith400IsUnsupportedToo() throws Exception {
        String key = prefix + "400-not-implemented.json";
        refuse(key, 400, "NotImplemented");

        assertThatThrownBy(() -> putIfAbsent(key)).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("HTTP 400 NotImplemented");
        assertThat(direct.head(key)).isEmpty();
    }

    @Test
    void aConflictingConcurrentWriteIsAPreconditionFailure() throws Exception {
        String key = prefix + "409.json";
        refuse(key, 409, "ConditionalRequestConflict");

        assertThatThrownBy(() -> putIfAbsent(key)).isInstanceOf(PreconditionFailedException.class)
                .hasMessageContaining("HTTP 409 ConditionalRequestConflict");
        assertThat(direct.head(key)).isEmpty();
    }

    @Test
    void anyOtherRefusalIsPermanentAndNeverDropsTheCondition() throws Exception {
        String key = prefix + "400-other.json";
        refuse(key, 400, "InvalidArgument");

        assertThatThrownBy(() -> putIfAbsent(key)).isInstanceOf(PermanentStoreException.class)
                .isNotInstanceOf(PreconditionFailedException.class).hasMessageContaining("HTTP 400 InvalidArgument");
        assertThat(direct.head(key)).isEmpty();
    }

    private void putIfAbsent(String key) throws Exception {
        Path file = write("{\"step\":7}");
        throughProxy.putIfUnchanged(key, file, Files.size(file), Sha256.of(file), Map.of("step", "7"), null);
    }

    /** Every request goes to S3Proxy, except a conditional PUT of {@code key}, answered with the given error. */
    private void refuse(String key, int status, String code) {
        passEverythingThrough(URI.create(directEndpoint()));
        MappingBuilder conditionalPut = put(urlPathMatching(".*/" + key.replace(".", "\\."))).atPriority(1)
                .withHeader("If-None-Match", matching(".+"))
                .willReturn(aResponse().withStatus(status).withHeader("Content-Type", "application/xml")
                        .withBody("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>"
                                + code + " from the proxy</Message><RequestId>1</RequestId></Error>"));
        proxy.stubFor(conditionalPut);
    }

    private void passEverythingThrough(URI target) {
        S3Proxying.passThrough(proxy, target.toString());
    }

    private static String directEndpoint() {
        return s3Endpoint;
    }

    private Path write(String json) throws Exception {
        Path file = Files.createTempFile(dir, "pointer", ".json");
        Files.writeString(file, json);
        return file;
    }
}
