package io.stowage.prefetch;

import io.stowage.events.Sha256;
import io.stowage.events.manifest.ShardEntry;
import io.stowage.store.ObjectReader;
import io.stowage.store.StoreException;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;

/**
 * Downloads one shard into a {@link ShardCache}: one GET streamed into a file under {@code partial/} while its SHA-256
 * is computed, fdatasync, compare size and SHA-256 with the dataset manifest, then an atomic rename to the final name.
 * A failed attempt (mismatch, broken stream, store error) deletes its file and is retried once; a second failure is
 * returned as a {@link ShardFailure}. An interrupt of the calling thread stops it at once, leaving no file.
 */
final class ShardDownload {
    static final int ATTEMPTS = 2;
    private static final int BUFFER = 1 << 20;
    private final ObjectReader reader;
    private final ShardCache cache;
    private final FetchListener listener;

    ShardDownload(ObjectReader reader, ShardCache cache, FetchListener listener) {
        this.reader = reader;
        this.cache = cache;
        this.listener = listener;
    }

    /**
     * Fetches {@code shard}, whose {@link ShardEntry#bytes()} must already be reserved in the cache.
     *
     * @return null when the shard is cached and verified; its failure after {@value #ATTEMPTS} attempts otherwise
     * @throws InterruptedIOException when the thread was interrupted (the fetch is being stopped)
     */
    ShardFailure run(ShardEntry shard) throws InterruptedIOException {
        String reason = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Path temp = cache.newPartialFile(shard.sha256(), attempt);
            try {
                reason = download(shard, temp);
                if (reason == null) {
                    cache.commit(temp, shard.sha256(), shard.bytes());
                    listener.shardFetched(shard, attempt);
                    return null;
                }
            } catch (InterruptedIOException e) {
                throw e;
            } catch (IOException | StoreException e) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedIOException("fetch of " + shard.key() + " interrupted");
                }
                reason = e.getClass().getSimpleName() + ": " + e.getMessage();
            } finally {
                deleteQuietly(temp);
            }
            if (attempt < ATTEMPTS) {
                listener.shardRetried(shard, reason);
            }
        }
        return new ShardFailure(shard.index(), shard.key(), shard.sha256(), ATTEMPTS, reason);
    }

    /** @return null when the bytes at {@code temp} match the manifest; the mismatch in one line otherwise */
    private String download(ShardEntry shard, Path temp) throws IOException {
        MessageDigest digest = Sha256.newDigest();
        long bytes = 0;
        byte[] buffer = new byte[BUFFER];
        try (InputStream in = reader.open(shard.key());
             FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedIOException("fetch of " + shard.key() + " interrupted");
                }
                bytes += n;
                if (bytes > shard.bytes()) {
                    return "size mismatch: more than the " + shard.bytes() + " bytes the dataset manifest names";
                }
                digest.update(buffer, 0, n);
                ByteBuffer chunk = ByteBuffer.wrap(buffer, 0, n);
                while (chunk.hasRemaining()) {
                    out.write(chunk);
                }
                listener.bytesReceived(n);
            }
            out.force(false); // fdatasync: the data and the size, enough to read the file back after a crash
        }
        if (bytes != shard.bytes()) {
            return "size mismatch: got " + bytes + " bytes, the dataset manifest names " + shard.bytes();
        }
        String actual = Sha256.hex(digest);
        return actual.equals(shard.sha256()) ? null
                : "SHA-256 mismatch: got " + actual + ", the dataset manifest names " + shard.sha256();
    }

    private static void deleteQuietly(Path temp) {
        try {
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            // the cache empties partial/ when it is next opened
        }
    }
}
