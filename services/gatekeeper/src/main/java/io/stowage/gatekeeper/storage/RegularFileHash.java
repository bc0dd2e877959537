package io.stowage.gatekeeper.storage;

import io.stowage.events.FileStamp;
import io.stowage.events.Sha256;
import io.stowage.gatekeeper.domain.LocalTree;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Consumes a path the gate expects to be a regular file and produces its SHA-256, or a failure, within a bound: the
 * calling thread (the gate's decision) never waits on the file system without one.
 *
 * <p>Plain Java cannot open with {@code O_NONBLOCK}, and {@code open()} of a FIFO without a writer blocks until one
 * comes, whatever {@link java.nio.file.OpenOption} is given. So: (1) the path's type is read without following a
 * symlink just before the open, and anything but a regular file is refused at once
 * ({@link LocalTree.NotRegularFileException}); (2) open and read run on a separate daemon thread while the caller
 * waits, at most the stall bound each time, for that thread to make progress (opened, or more bytes read); a thread
 * without progress within the bound is abandoned, reported as a failure, and closes what it opens should it ever
 * return (a FIFO swapped in between (1) and the open blocks only that thread, until a writer comes); (3) the opened
 * descriptor must be seekable (a FIFO is not: {@code lseek} fails), at most the stamped bytes are read (a device
 * never ends), and the stamp (device, inode, bytes, mtime, ctime) after the read must equal the one before, so a file
 * swapped or written meanwhile fails instead of passing. A large regular file is never cut short: only a stall is.
 */
final class RegularFileHash {
    /** Longest wait, by default, for the open or for one read to return. */
    static final Duration DEFAULT_STALL = Duration.ofSeconds(5);
    private static final int BUFFER = 1 << 20;
    /** One read buffer per reader thread, kept for its next file (no 1 MiB allocation per file). */
    private static final ThreadLocal<ByteBuffer> BUFFERS = ThreadLocal.withInitial(() -> ByteBuffer.allocate(BUFFER));
    private static final ExecutorService READERS = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "gate-file-read");
        thread.setDaemon(true);
        return thread;
    });

    private RegularFileHash() {
    }

    /**
     * @param stall how long the open, or any one read, may take before the hash is given up
     * @return the SHA-256 of the file's content, 64 lower-case hex digits
     * @throws LocalTree.NotRegularFileException when the path is not a regular file before the open, or the opened
     *                                           descriptor is not seekable (a FIFO)
     * @throws IOException                       when it cannot be read, changed while read, or stalled past the bound
     */
    static String of(Path file, Duration stall) throws IOException {
        FileStamp before = regular(file);
        AtomicLong progress = new AtomicLong();
        Future<String> reading = READERS.submit(() -> read(file, before.bytes(), progress));
        return await(file, reading, progress, stall, before);
    }

    /**
     * Reads a whole small regular file (a manifest) under the same rules as {@link #of}: type checked without following
     * a symlink, open and reads bounded by {@code stall}, at most the stamped bytes, unchanged while read.
     *
     * @param maxBytes the largest file accepted, in bytes; a larger one is an IOException before it is opened
     * @return the file's bytes
     * @throws LocalTree.NotRegularFileException when the path is not a regular file
     * @throws IOException                       when it is too large, cannot be read, changed while read, or stalled
     */
    static byte[] readAll(Path file, Duration stall, int maxBytes) throws IOException {
        FileStamp before = regular(file);
        if (before.bytes() > maxBytes) {
            throw new IOException(file + " holds " + before.bytes() + " bytes, more than the " + maxBytes
                    + " a manifest may");
        }
        AtomicLong progress = new AtomicLong();
        ByteArrayOutputStream kept = new ByteArrayOutputStream((int) before.bytes());
        Future<String> reading = READERS.submit(() -> drain(file, before.bytes(), progress, null, kept));
        await(file, reading, progress, stall, before);
        return kept.toByteArray();
    }

    private static FileStamp regular(Path file) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isRegularFile()) {
            throw new LocalTree.NotRegularFileException(file + " is " + (attributes.isSymbolicLink() ? "a symlink"
                    : attributes.isDirectory() ? "a directory" : "a FIFO, socket or device") + ", not a regular file");
        }
        return FileStamp.of(file);
    }

    /**
     * Opens and reads {@code file} on a reader thread without checking its type first: the part of {@link #of} that
     * can meet a FIFO swapped in after the check. Visible for the test of the bound.
     */
    static String openAndRead(Path file, long maxBytes, Duration stall) throws IOException {
        AtomicLong progress = new AtomicLong();
        return await(file, READERS.submit(() -> read(file, maxBytes, progress)), progress, stall, null);
    }

    private static String await(Path file, Future<String> reading, AtomicLong progress, Duration stall,
                                FileStamp before) throws IOException {
        long seen = -1;
        while (true) {
            try {
                String sha256 = reading.get(stall.toNanos(), TimeUnit.NANOSECONDS);
                if (before != null && !before.equals(stampAfter(file))) {
                    throw new IOException(file + " changed while it was hashed");
                }
                return sha256;
            } catch (TimeoutException e) {
                long now = progress.get();
                if (now == seen) {
                    reading.cancel(true);
                    throw new IOException(file + ": no progress opening or reading it for " + stall.toMillis()
                            + " ms (a FIFO or device swapped in?); given up");
                }
                seen = now;
            } catch (ExecutionException e) {
                throw e.getCause() instanceof IOException io ? io : new IOException(file + ": " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                reading.cancel(true);
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while hashing " + file, e);
            }
        }
    }

    private static FileStamp stampAfter(Path file) throws IOException {
        try {
            return FileStamp.of(file);
        } catch (IOException e) {
            throw new IOException(file + " changed while it was hashed: " + e.getMessage(), e);
        }
    }

    /** Runs on a reader thread; {@code progress} counts the open as 1 and each read after it. */
    private static String read(Path file, long maxBytes, AtomicLong progress) throws IOException {
        MessageDigest digest = Sha256.newDigest();
        drain(file, maxBytes, progress, digest, null);
        return Sha256.hex(digest);
    }

    /**
     * Opens {@code file} (no symlink followed), requires a seekable descriptor and reads at most {@code maxBytes} into
     * {@code digest} and/or {@code kept}, through this reader thread's own 1 MiB buffer (kept for its next file).
     *
     * @return null (a {@link java.util.concurrent.Callable} result)
     */
    private static String drain(Path file, long maxBytes, AtomicLong progress, MessageDigest digest,
                                ByteArrayOutputStream kept) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            progress.incrementAndGet();
            try {
                channel.position();
            } catch (IOException e) {
                throw new LocalTree.NotRegularFileException(file + " is no regular file once opened (not seekable: "
                        + e.getMessage() + ")");
            }
            ByteBuffer buffer = BUFFERS.get();
            buffer.clear();
            long total = 0;
            for (int n = channel.read(buffer); n >= 0; n = channel.read(buffer)) {
                progress.incrementAndGet();
                total += n;
                if (total > maxBytes) {
                    throw new IOException(file + " holds more than the " + maxBytes + " bytes it had when stamped");
                }
                buffer.flip();
                if (kept != null) {
                    kept.write(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
                }
                if (digest != null) {
                    digest.update(buffer);
                }
                buffer.clear();
            }
            return null;
        }
    }
}
