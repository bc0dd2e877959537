package io.stowage.store.s3;

import io.stowage.events.Sha256;
import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.ObjectReader;
import io.stowage.store.ReadResult;
import io.stowage.store.StoreConfig;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A read-only view of one bucket on the AWS SDK's <em>blocking</em> S3 client (Apache HttpClient 5 or the JDK's
 * {@code HttpURLConnection}, see {@link HttpBackend}): HEAD, full read with SHA-256 (one streamed GET, or parallel
 * ranged GETs above {@link ReadTuning#rangedThreshold()} hashed in order, see {@link BlockingRangedRead}), list. It
 * can neither write nor delete. Measured faster and cheaper in CPU than the async Netty path of
 * {@link S3ObjectStore} for full re-reads (docs/benchmarks/re-read.md). Methods block the calling thread.
 */
public final class S3ObjectReader implements ObjectReader, AutoCloseable {
    private static final int STREAM_BUFFER = 256 << 10;
    private final String name;
    private final String bucket;
    private final S3Client client;
    private final BlockingRangedRead ranged;
    private final ReadTuning reads;

    /** Builds its own client from {@code config}; {@link #close()} closes it and the part threads. */
    public S3ObjectReader(StoreConfig config, ReadTuning reads, HttpBackend backend) {
        this.name = config.name();
        this.bucket = config.bucket();
        this.reads = reads;
        this.client = S3Client.builder()
                .endpointOverride(config.endpoint())
                .region(Region.of(config.region()))
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(config.accessKeyId(), config.secretAccessKey())))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClient(http(backend))
                .overrideConfiguration(o -> o.retryStrategy(
                        AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(2).build()))
                .build();
        this.ranged = new BlockingRangedRead(client, bucket, reads);
    }

    private static SdkHttpClient http(HttpBackend backend) {
        return switch (backend) {
            case APACHE -> Apache5HttpClient.builder().maxConnections(64)
                    .connectionTimeout(Duration.ofSeconds(5)).socketTimeout(Duration.ofSeconds(60)).build();
            case URL_CONNECTION -> UrlConnectionHttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(5)).socketTimeout(Duration.ofSeconds(60)).build();
        };
    }

    @Override
    public String storeName() {
        return name;
    }

    @Override
    public String bucket() {
        return bucket;
    }

    @Override
    public Optional<ObjectHead> head(String key) {
        try {
            HeadObjectResponse r = call(key, "HEAD", () -> client.headObject(b -> b.bucket(bucket).key(key)));
            return Optional.of(new ObjectHead(r.contentLength(), r.metadata().get(S3ObjectStore.SHA256_METADATA),
                    S3Errors.stripQuotes(r.eTag()), r.metadata()));
        } catch (ObjectNotFoundException e) {
            return Optional.empty();
        }
    }

    /**
     * HEADs the object, then reads it in one streamed GET up to {@link ReadTuning#rangedThreshold()} bytes (an empty
     * object too: it gets no Range header), above it as parallel ranged GETs hashed in order.
     */
    @Override
    public ReadResult readAndHash(String key) {
        ObjectHead head = head(key).orElseThrow(() -> new ObjectNotFoundException(bucket, key));
        if (ranged(head)) {
            return call(key, "GET", () -> ranged.run(key, head.bytes(), head.etag()));
        }
        return streamed(key);
    }

    /**
     * Reads an object that {@code seen} (the caller's HEAD) says is at most {@link ReadTuning#rangedThreshold()} bytes
     * in one streamed GET without a HEAD of its own; a larger one as {@link #readAndHash(String)}, after a fresh HEAD
     * whose ETag its ranged GETs are checked against. An object that grew past the threshold since {@code seen} is
     * still read whole by the streamed GET: the bytes and SHA-256 returned are what the GET read.
     */
    @Override
    public ReadResult readAndHash(String key, ObjectHead seen) {
        return ranged(seen) ? readAndHash(key) : streamed(key);
    }

    private boolean ranged(ObjectHead head) {
        return head.bytes() > reads.rangedThreshold() && head.bytes() > 0;
    }

    private ReadResult streamed(String key) {
        return call(key, "GET", () -> {
            MessageDigest digest = Sha256.newDigest();
            long bytes = 0;
            byte[] buffer = new byte[STREAM_BUFFER];
            try (InputStream in = client.getObject(b -> b.bucket(bucket).key(key))) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    digest.update(buffer, 0, n);
                    bytes += n;
                }
            } catch (IOException e) {
                throw S3Errors.translate(e, bucket, key, "GET " + bucket + "/" + key);
            }
            return new ReadResult(bytes, Sha256.hex(digest));
        });
    }

    /**
     * Opens the object's bytes as one streamed GET (no Range header, nothing hashed here), for readers that parse what
     * they read, such as the shard reader of {@code stowage dataset verify}.
     *
     * @return the object's bytes; the caller closes the stream. A connection that breaks while reading surfaces as an
     *         {@link IOException} from the stream
     * @throws ObjectNotFoundException when there is no object at {@code key}
     * @throws io.stowage.store.TransientStoreException when the store cannot be reached or answers 5xx / 429
     * @throws io.stowage.store.PermanentStoreException when the store refuses the request
     */
    @Override
    public InputStream open(String key) {
        return call(key, "GET", () -> client.getObject(b -> b.bucket(bucket).key(key)));
    }

    @Override
    public List<String> list(String prefix) {
        return call(prefix, "LIST", () -> client.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents()
                .stream().map(S3Object::key).toList());
    }

    private <T> T call(String key, String verb, Supplier<T> operation) {
        try {
            return operation.get();
        } catch (RuntimeException e) {
            throw S3Errors.translate(e, bucket, key, verb + " " + name + ":" + bucket + "/" + key);
        }
    }

    @Override
    public void close() {
        ranged.close();
        client.close();
    }

    /** @return the blocking client (for tests of {@link BlockingRangedRead} in this package) */
    S3Client client() {
        return client;
    }

    /** @return the response of a GET as a stream (for {@link BlockingRangedRead}); the caller closes it */
    static ResponseInputStream<GetObjectResponse> get(S3Client client, String bucket, String key, String range) {
        return client.getObject(b -> b.bucket(bucket).key(key).range(range));
    }
}
