package io.stowage.store.s3;

import io.stowage.events.Sha256;
import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.ObjectReader;
import io.stowage.store.ObjectWriter;
import io.stowage.store.PutResult;
import io.stowage.store.ReadResult;
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
import java.time.Clock;
import java.time.Duration;
import io.stowage.store.StoreAccessException;
import io.stowage.store.UploadObserver;

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
    private final String endpoint;
    private final S3AsyncClient client;
    private final UploadTuning tuning;
    private final ReadTuning reads;
    private final ListingQueries listing;
    private final Path journalDir;
    private final List<Path> peerJournalDirs;
    private final UploadObserver observer;
    private final Clock clock;

    /** Builds its own client from {@code config}, reading with {@link ReadTuning#defaults()}; {@link #close()} closes it. */
    public S3ObjectStore(StoreConfig config, UploadTuning tuning) {
        this(config, tuning, ReadTuning.defaults());
    }

    /**
     * Builds its own client from {@code config}; {@link #close()} closes it. Multipart upload journals
     * go to {@link #defaultJournalDir()}.
     */
    public S3ObjectStore(StoreConfig config, UploadTuning tuning, ReadTuning reads) {
        this(config, tuning, reads, defaultJournalDir(), UploadObserver.NONE, Clock.systemUTC());
    }

    /**
     * Builds its own client from {@code config}; {@link #close()} closes it.
     *
     * @param journalDir where the journal of each incomplete multipart upload is kept (one file per
     *                   bucket and key), so that a restarted process continues the same upload; must be
     *                   on a disk that survives the process (not a tmpfs wiped on restart, if resuming matters)
     * @param observer   told about parts sent (progress)
     * @param clock      the time recorded for a new upload, and the "now" of {@link #abortUploadsOlderThan}
     */
    public S3ObjectStore(StoreConfig config, UploadTuning tuning, ReadTuning reads, Path journalDir,
                         UploadObserver observer, Clock clock) {
        this(config, tuning, reads, journalDir, List.of(), observer, clock);
    }

    /**
     * Like {@link #S3ObjectStore(StoreConfig, UploadTuning, ReadTuning, Path, UploadObserver, Clock)} for one of several
     * processes writing to the same bucket, each with its own journal directory.
     *
     * @param peerJournalDirs the journal directories of this store kept by the other processes (other uploader
     *                        instances); {@link #abortUploadsOlderThan} never aborts an upload that a journal in any of
     *                        them names, and aborts nothing when one of them exists but cannot be read. A directory that
     *                        does not exist names no upload.
     */
    public S3ObjectStore(StoreConfig config, UploadTuning tuning, ReadTuning reads, Path journalDir,
                         List<Path> peerJournalDirs, UploadObserver observer, Clock clock) {
        this.peerJournalDirs = List.copyOf(peerJournalDirs);
        this.name = config.name();
        this.endpoint = config.endpoint().toString();
        this.bucket = config.bucket();
        this.client = S3Clients.create(config);
        this.tuning = tuning;
        this.reads = reads;
        this.listing = new ListingQueries(client, bucket);
        this.journalDir = journalDir;
        this.observer = observer;
        this.clock = clock;
    }

    /** @return {@code <java.io.tmpdir>/stowage-upload-journals} */
    public static Path defaultJournalDir() {
        return Path.of(System.getProperty("java.io.tmpdir"), "stowage-upload-journals");
    }

    /**
     * @return the journal file of the multipart upload of {@code key} in this store's bucket (whether or not it
     *         exists): {@code <journalDir>/<SHA-256 of "bucket\nkey">.journal}
     */
    public Path journalFile(String key) {
        return journalDir.resolve(Sha256.of((bucket + "\n" + key).getBytes(java.nio.charset.StandardCharsets.UTF_8))
                + ".journal");
    }

    /**
     * Checks at start-up that the store answers, the bucket exists and the credentials are accepted
     * (HeadBucket), so that a misconfiguration fails at once rather than on the first upload.
     *
     * @throws StoreAccessException with a one-line message naming the store, endpoint and bucket
     */
    public void probe() {
        new AccessProbe(client, name, endpoint, bucket).run();
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
                    S3Errors.stripQuotes(r.eTag()), r.metadata()));
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
                if (bytes >= tuning.multipartThreshold() && bytes > 0) {
                    return new ResumableMultipartPut(client, bucket, tuning, new UploadJournal(journalFile(key)),
                            observer, clock).run(key, source, bytes, sha256, userMetadata);
                }
                return singlePut(key, source, bytes, userMetadata, b -> { });
            }
        });
    }

    /**
     * One PUT carrying {@code If-Match: "expectedEtag"}, or {@code If-None-Match: *} when {@code expectedEtag} is null,
     * so the store writes only when the key still holds what the caller saw; otherwise as {@link #put}.
     *
     * @throws io.stowage.store.PreconditionFailedException when the object at the key changed (412, or 409
     *         {@code ConditionalRequestConflict}) or is gone ({@code If-Match} answered 404): nothing was written
     * @throws UnsupportedOperationException when the store answers 501: it does not implement conditional writes
     * @throws IllegalArgumentException when {@code bytes} is at or above the multipart threshold
     */
    @Override
    public PutResult putIfUnchanged(String key, Path file, long bytes, String sha256, Map<String, String> metadata,
                                    String expectedEtag) {
        if (bytes >= tuning.multipartThreshold() && bytes > 0) {
            throw new IllegalArgumentException("a conditional put is one request: " + bytes + " bytes is at or above the"
                    + " multipart threshold of " + tuning.multipartThreshold());
        }
        Map<String, String> userMetadata = new HashMap<>(metadata);
        userMetadata.put(SHA256_METADATA, sha256);
        return call(key, expectedEtag == null ? "PUT if absent" : "PUT if ETag " + expectedEtag, () -> {
            try (HashingSource source = new HashingSource(file, bytes, sha256)) {
                return singlePut(key, source, bytes, userMetadata, expectedEtag == null ? b -> b.ifNoneMatch("*")
                        : b -> b.ifMatch("\"" + expectedEtag + "\""));
            } catch (RuntimeException e) {
                int status = S3Errors.status(e);
                String code = S3Errors.code(e);
                if (status == 501 || "NotImplemented".equals(code)) {
                    // S3 answers a header it does not implement with 501 NotImplemented; some S3-compatible stores
                    // give the same error code with 400
                    throw new UnsupportedOperationException("store " + name + " (bucket " + bucket + ") does not"
                            + " implement conditional writes: HTTP " + status + (code == null ? "" : " " + code), e);
                }
                if (status == 404 && expectedEtag != null) {
                    // If-Match on a key whose object was deleted since: S3 answers 404 NoSuchKey, the condition failed
                    throw new io.stowage.store.PreconditionFailedException("PUT if ETag " + expectedEtag + " " + name
                            + ":" + bucket + "/" + key + ": the object is gone (HTTP 404)", e);
                }
                throw e;
            }
        });
    }

    /**
     * Hashes the file through a small buffer, then streams it in one PUT carrying its SHA-256 as
     * {@code x-amz-checksum-sha256}, so the store refuses a body that is not the hashed one; the bytes
     * sent are hashed again as they go out and must match too.
     */
    private PutResult singlePut(String key, HashingSource source, long bytes, Map<String, String> metadata,
                                java.util.function.Consumer<software.amazon.awssdk.services.s3.model.PutObjectRequest.Builder> condition) {
        source.hashNext(bytes);
        String sha256 = source.finish();
        // the store checks the body against this checksum too, so a body corrupted in transit is refused
        String checksum = java.util.Base64.getEncoder().encodeToString(HexFormat.of().parseHex(sha256));
        StreamedFileRange body = bytes == 0 ? null : new StreamedFileRange(source.file(), 0, bytes);
        String etag;
        try {
            etag = client.putObject(b -> b.bucket(bucket).key(key).contentLength(bytes).metadata(metadata)
                    .checksumSHA256(checksum).applyMutation(condition), body == null ? AsyncRequestBody.empty() : body).join().eTag();
        } catch (RuntimeException e) {
            if (body != null && body.fileChanged()) {
                throw new io.stowage.store.SourceChangedException(source.file() + " (while it was sent)", bytes,
                        sha256, body.sent().bytes(), null);
            }
            throw e;
        }
        if (body != null) {
            StreamedFileRange.Sent sent = body.sent();
            if (sent.bytes() != bytes || !sent.sha256().equals(sha256)) {
                throw new io.stowage.store.SourceChangedException(source.file() + " (while it was sent)", bytes,
                        sha256, sent.bytes(), sent.sha256());
            }
        }
        return new PutResult(S3Errors.stripQuotes(etag), bytes, sha256, false);
    }

    @Override
    public int abortIncompleteUploads(String key) {
        return call(key, "ABORT", () -> listing.abortUploadsOf(key));
    }

    /**
     * Aborts every incomplete multipart upload in the bucket created more than {@code age} ago (by the
     * store's initiation time and this store's clock): uploads a crashed uploader will not come back to. An upload
     * that a journal in this store's journal directory, or in one of the peers' journal directories, names is never
     * aborted, whatever its age: the uploader that journaled it resumes it when the event comes again
     * ({@link JournalDirectory}).
     *
     * @return the number of uploads aborted
     * @throws java.io.UncheckedIOException when a journal directory cannot be read (then nothing more is aborted)
     */
    @Override
    public int abortUploadsOlderThan(Duration age) {
        return call("", "ABORT-OLD", () -> listing.abortUploadsInitiatedBefore(clock.instant().minus(age),
                this::ownedUploadIds));
    }

    private java.util.Set<String> ownedUploadIds() {
        java.util.Set<String> owned = new java.util.HashSet<>(new JournalDirectory(journalDir).ownedUploadIds());
        for (Path peer : peerJournalDirs) {
            owned.addAll(new JournalDirectory(peer).ownedUploadIds());
        }
        return owned;
    }

    /** S3's limit for a single CopyObject, and the default above which {@link #copy} goes in UploadPartCopy parts. */
    public static final long PART_COPY_THRESHOLD = 5L << 30;

    /**
     * Copies the object at {@code sourceKey} to {@code targetKey} in this bucket inside the store, without downloading
     * it ({@link ServerSideCopy}: CopyObject, or UploadPartCopy parts above {@code partCopyThreshold}); the copy gets
     * the source's SHA-256 as its {@code sha256} metadata plus {@code metadata}. It never deletes the source. The caller
     * re-reads the copy ({@link #readAndHash}) to check it.
     *
     * @param partCopyThreshold above this many bytes the copy goes in parts ({@link #PART_COPY_THRESHOLD} normally)
     * @param partSize          bytes per part copy, at least 5 MiB
     * @return the parts used: 0 for a single CopyObject
     * @throws io.stowage.store.ObjectNotFoundException when there is no object at {@code sourceKey}
     * @throws io.stowage.store.StoreException          when the store refuses or cannot be reached
     */
    public int copy(String sourceKey, String targetKey, Map<String, String> metadata, long partCopyThreshold,
                    long partSize) {
        ObjectHead source = head(sourceKey).orElseThrow(() -> new io.stowage.store.ObjectNotFoundException(bucket, sourceKey));
        Map<String, String> all = new HashMap<>(metadata);
        if (source.sha256() != null) {
            all.put(SHA256_METADATA, source.sha256());
        }
        return call(targetKey, "COPY", () -> new ServerSideCopy(client, bucket).copy(sourceKey, targetKey,
                source.bytes(), all, partCopyThreshold, partSize));
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
