package io.stowage.store.s3;

import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.ObjectReader;
import io.stowage.store.ObjectWriter;
import io.stowage.store.PutResult;
import io.stowage.store.ReadResult;
import io.stowage.store.Sha256;
import io.stowage.store.StoreConfig;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One bucket of an S3-compatible store on the AWS SDK v2 async client: reads (HEAD, full read
 * with SHA-256, list) and writes (PUT or multipart upload with the object's SHA-256 as the
 * {@code sha256} user metadata). Hand it out as an {@link ObjectReader} or an {@link ObjectWriter}
 * only; it never deletes an object. Blocking methods: call them from worker threads.
 */
public final class S3ObjectStore implements ObjectReader, ObjectWriter, AutoCloseable {
    /** User metadata name of the object's SHA-256 (header {@code x-amz-meta-sha256}). */
    public static final String SHA256_METADATA = "sha256";
    private static final int READ_BUFFER = 1 << 20;

    private final String name;
    private final String bucket;
    private final S3AsyncClient client;
    private final UploadTuning tuning;
    private final ReadTuning reads;
    private final ListingQueries listing;

    /** Builds its own client from {@code config}, reading with {@link ReadTuning#defaults()}; {@link #close()} closes it. */
    public S3ObjectStore(StoreConfig config, UploadTuning tuning) {
        this(config, tuning, ReadTuning.defaults());
    }

    /** Builds its own client from {@code config}; {@link #close()} closes it. */
    public S3ObjectStore(StoreConfig config, UploadTuning tuning, ReadTuning reads) {
        this.name = config.name();
        this.bucket = config.bucket();
        this.client = S3Clients.create(config);
        this.tuning = tuning;
        this.reads = reads;
        this.listing = new ListingQueries(client, bucket);
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
            HeadObjectResponse r = call(key, "HEAD", () -> client.headObject(b -> b.bucket(bucket).key(key)).join());
            return Optional.of(new ObjectHead(r.contentLength(), r.metadata().get(SHA256_METADATA),
                    S3Errors.stripQuotes(r.eTag())));
        } catch (ObjectNotFoundException e) {
            return Optional.empty();
        }
    }

    /**
     * HEADs the object, then reads it in one GET up to {@link ReadTuning#rangedThreshold()} bytes (an empty
     * object too: it gets no Range header), above it as parallel ranged GETs hashed in order ({@link RangedRead}).
     */
    @Override
    public ReadResult readAndHash(String key) {
        ObjectHead head = head(key).orElseThrow(() -> new ObjectNotFoundException(bucket, key));
        if (head.bytes() > reads.rangedThreshold() && head.bytes() > 0) {
            return call(key, "GET", () -> new RangedRead(client, bucket, reads).run(key, head.bytes(), head.etag()));
        }
        return call(key, "GET", () -> {
            MessageDigest digest = Sha256.newDigest();
            long bytes = 0;
            byte[] buffer = new byte[READ_BUFFER];
            try (InputStream in = client.getObject(b -> b.bucket(bucket).key(key),
                    AsyncResponseTransformer.toBlockingInputStream()).join()) {
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

    @Override
    public List<String> list(String prefix) {
        return call(prefix, "LIST", () -> listing.keys(prefix));
    }

    @Override
    public PutResult put(String key, Path file, long bytes, String sha256, Map<String, String> metadata) {
        Map<String, String> userMetadata = new HashMap<>(metadata);
        userMetadata.put(SHA256_METADATA, sha256);
        return call(key, "PUT", () -> {
            try (HashingSource source = new HashingSource(file, bytes, sha256)) {
                if (bytes >= tuning.multipartThreshold()) {
                    return new MultipartPut(client, bucket, tuning).run(key, source, bytes, userMetadata);
                }
                return singlePut(key, source, bytes, userMetadata);
            }
        });
    }

    private PutResult singlePut(String key, HashingSource source, long bytes, Map<String, String> metadata) {
        byte[] content = source.next((int) bytes);
        String sha256 = source.finish();
        // the store checks the body against this checksum too, so a body corrupted in transit is refused
        String checksum = java.util.Base64.getEncoder().encodeToString(HexFormat.of().parseHex(sha256));
        String etag = client.putObject(b -> b.bucket(bucket).key(key).contentLength(bytes).metadata(metadata)
                .checksumSHA256(checksum), AsyncRequestBody.fromBytesUnsafe(content)).join().eTag();
        return new PutResult(S3Errors.stripQuotes(etag), bytes, sha256, false);
    }

    @Override
    public int abortIncompleteUploads(String key) {
        return call(key, "ABORT", () -> listing.abortUploadsOf(key));
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
        client.close();
    }

    @Override
    public String toString() {
        return "S3ObjectStore[" + name + ":" + bucket + "]";
    }
}
