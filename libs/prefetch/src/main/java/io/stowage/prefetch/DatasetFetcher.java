package io.stowage.prefetch;

import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.DatasetManifest;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.shardformat.MemberManifest;
import io.stowage.events.manifest.ShardEntry;
import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.ObjectReader;
import io.stowage.store.StoreException;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

/**
 * The prefetch API a training process (or {@code stowage dataset fetch}) calls: reads a revision's dataset manifest
 * ({@code datasets/<D>/<R>/manifest.json}, written by the shard-builder and stored by the uploader) through a
 * read-only {@link ObjectReader}, and brings its shards into a {@link ShardCache}, at most {@code parallel} GETs at
 * a time, each verified by {@link ShardDownload}. {@link #open} hands out a pinned shard, fetching it on demand.
 */
public final class DatasetFetcher {
    private final ObjectReader reader;
    private final ShardCache cache;
    private final int parallel;

    /**
     * @param reader   the store holding the dataset (only {@code head}, {@code open} and nothing else are used)
     * @param cache    where verified shards go
     * @param parallel most shards downloaded at once, at least 1
     */
    public DatasetFetcher(ObjectReader reader, ShardCache cache, int parallel) {
        if (parallel < 1) {
            throw new IllegalArgumentException("parallel must be at least 1, not " + parallel);
        }
        this.reader = reader;
        this.cache = cache;
        this.parallel = parallel;
    }

    /**
     * Reads the dataset manifest of a revision. When the stored object carries the uploader's {@code sha256}
     * metadata, the bytes read must have that SHA-256.
     *
     * @throws ManifestException when it is missing, malformed, names another dataset or revision, or its SHA-256
     *                           differs from its metadata
     * @throws StoreException    when the store fails
     */
    public DatasetManifest manifest(String dataset, String revision) {
        String key = ObjectKeys.datasetManifest(dataset, revision);
        Optional<ObjectHead> head = reader.head(key);
        if (head.isEmpty()) {
            throw new ManifestException("no dataset manifest at " + key + " in the " + reader.storeName() + " store");
        }
        byte[] bytes = readSmall(key, head.get().sha256());
        DatasetManifest manifest;
        try {
            manifest = EventCodec.mapper().readValue(bytes, DatasetManifest.class);
        } catch (IOException e) {
            throw new ManifestException("the dataset manifest " + key + " does not parse: " + e.getMessage(), e);
        }
        if (!DatasetManifest.FORMAT.equals(manifest.format()) || !dataset.equals(manifest.dataset())
                || !revision.equals(manifest.revision()) || manifest.shards() == null) {
            throw new ManifestException("the dataset manifest " + key + " is not a " + DatasetManifest.FORMAT
                    + " manifest of " + dataset + "@" + revision);
        }
        return manifest;
    }

    /**
     * Reads a shard's member manifest (JSONL of {@link MemberEntry}) and checks it against the SHA-256 and size the
     * dataset manifest records for it.
     *
     * @throws ManifestException when it is missing, differs or does not parse, or names a member the
     *                           {@code MemberName} rule refuses (absolute, {@code ..}, {@code .} or empty segment, backslash, NUL)
     */
    public List<MemberEntry> members(ShardEntry shard) {
        byte[] bytes = readSmall(shard.membersKey(), shard.membersSha256());
        if (bytes.length != shard.membersBytes()) {
            throw new ManifestException("the member manifest " + shard.membersKey() + " has " + bytes.length
                    + " bytes, the dataset manifest names " + shard.membersBytes());
        }
        try {
            return MemberManifest.read(new java.io.ByteArrayInputStream(bytes), shard.membersKey());
        } catch (IOException e) {
            throw new ManifestException("the member manifest " + shard.membersKey() + " does not parse: " + e.getMessage(), e);
        }
    }

    /** {@link #manifest} then {@link #fetchAll(DatasetManifest, FetchListener)}. */
    public FetchReport fetchAll(String dataset, String revision, FetchListener listener) throws IOException {
        return fetchAll(manifest(dataset, revision), listener);
    }

    /**
     * Unpacks every shard of a fetched revision into {@code to} with {@link MemberExtractor}, each member checked
     * against its shard's member manifest (read from the store, its SHA-256 checked against the dataset manifest).
     * Each shard is pinned while it is read.
     *
     * @return members written
     * @throws MemberMismatchException when a shard's members differ from its member manifest
     * @throws IllegalStateException   when a shard is not in the cache (fetch it first)
     */
    public long extractAll(DatasetManifest manifest, java.nio.file.Path to) throws IOException {
        long members = 0;
        for (ShardEntry shard : manifest.shards()) {
            List<MemberEntry> expected = members(shard);
            try (ShardLease lease = cache.pin(shard.sha256())) {
                members += MemberExtractor.extract(lease.path(), expected, to);
            }
        }
        return members;
    }

    /**
     * Brings every shard of the revision into the cache: shards already cached are not read again (an interrupted
     * fetch resumes here), the others are downloaded {@code parallel} at a time. Shards of other revisions are
     * evicted, least recently used first, when room is needed; pinned ones never.
     *
     * @return the counts and the shards that failed twice (the fetch goes on past a failed shard)
     * @throws CacheFullException     before any GET when the revision alone exceeds the cache limit, or when pinned
     *                                shards leave no room
     * @throws InterruptedIOException when the calling thread is interrupted (downloads stop; no partial file stays)
     */
    public FetchReport fetchAll(DatasetManifest manifest, FetchListener listener) throws IOException {
        long started = System.nanoTime();
        long total = manifest.shards().stream().mapToLong(ShardEntry::bytes).sum();
        if (total > cache.limitBytes()) {
            throw new CacheFullException(manifest.dataset() + "@" + manifest.revision() + " has " + total
                    + " bytes of shards, more than the cache limit of " + cache.limitBytes() + " bytes");
        }
        Set<String> keep = manifest.shards().stream().map(ShardEntry::sha256).collect(Collectors.toSet());
        CountingListener counts = new CountingListener(listener);
        List<ShardEntry> missing = new ArrayList<>();
        int cached = 0;
        for (ShardEntry shard : manifest.shards()) {
            if (cache.contains(shard.sha256(), shard.bytes())) {
                cache.pin(shard.sha256()).close(); // marks it most recently used
                counts.shardCached(shard);
                cached++;
            } else {
                missing.add(shard);
            }
        }
        List<ShardFailure> failures = download(missing, keep, counts);
        return new FetchReport(manifest.dataset(), manifest.revision(), manifest.shards().size(), total, cached,
                counts.fetched.get(), counts.retried.get(), counts.bytes.get(), (System.nanoTime() - started) / 1e9,
                failures, 0);
    }

    /**
     * Pins one shard for reading, downloading it first when it is not cached (evicting least recently used shards
     * that are not pinned). Close the lease when done with the file.
     *
     * @throws ShardFetchException when the download failed twice
     * @throws CacheFullException  when every other shard is pinned and there is no room
     */
    public ShardLease open(ShardEntry shard) throws IOException {
        for (int tries = 0; ; tries++) {
            if (cache.contains(shard.sha256(), shard.bytes())) {
                try {
                    return cache.pin(shard.sha256());
                } catch (IllegalStateException evictedMeanwhile) {
                    if (tries > 2) {
                        throw evictedMeanwhile;
                    }
                }
            }
            cache.reserve(shard.bytes(), Set.of());
            ShardFailure failure = runReserved(shard, FetchListener.NONE);
            if (failure != null) {
                throw new ShardFetchException(failure);
            }
        }
    }

    private List<ShardFailure> download(List<ShardEntry> shards, Set<String> keep, FetchListener listener)
            throws IOException {
        if (shards.isEmpty()) {
            return List.of();
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallel, shards.size()), r -> {
            Thread t = new Thread(r, "stowage-prefetch");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<ShardFailure>> futures = new ArrayList<>();
            for (ShardEntry shard : shards) {
                futures.add(pool.submit(() -> {
                    cache.reserve(shard.bytes(), keep);
                    return runReserved(shard, listener);
                }));
            }
            List<ShardFailure> failures = new ArrayList<>();
            for (Future<ShardFailure> future : futures) {
                ShardFailure failure = future.get();
                if (failure != null) {
                    failures.add(failure);
                }
            }
            return failures;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("fetch interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            stop(pool);
        }
    }

    /** Interrupts the downloads still running and waits for them to delete their partial files. */
    private static void stop(ExecutorService pool) {
        pool.shutdownNow();
        boolean interrupted = Thread.interrupted();
        try {
            if (!pool.awaitTermination(60, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new IllegalStateException("shard downloads did not stop within 60 s of an interrupt");
            }
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private ShardFailure runReserved(ShardEntry shard, FetchListener listener) throws InterruptedIOException {
        try {
            ShardFailure failure = new ShardDownload(reader, cache, listener).run(shard);
            if (failure != null) {
                listener.shardFailed(failure);
            }
            return failure;
        } finally {
            cache.release(shard.bytes());
        }
    }

    private byte[] readSmall(String key, String expectedSha256) {
        byte[] bytes;
        try (InputStream in = reader.open(key)) {
            bytes = in.readAllBytes();
        } catch (ObjectNotFoundException e) {
            throw new ManifestException("no object at " + key + " in the " + reader.storeName() + " store", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + key + ": " + e.getMessage(), e);
        }
        if (expectedSha256 != null && !expectedSha256.equals(Sha256.of(bytes))) {
            throw new ManifestException(key + " has SHA-256 " + Sha256.of(bytes) + ", expected " + expectedSha256);
        }
        return bytes;
    }
}
