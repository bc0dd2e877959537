package io.stowage.gatekeeper.storage;

import io.stowage.events.FileStamp;
import io.stowage.gatekeeper.domain.LocalTree;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;

/**
 * A {@link LocalTree} that starts hashing the regular files of the requested directory as soon as the request arrives,
 * on {@link #THREADS} threads (one per core), while the gatekeeper waits for the ledger's evidence; the gate then
 * asks for each file's SHA-256 as usual. A hash taken ahead is used only when the file's stamp (file key = device and
 * inode, bytes, modification time, status-change time) is the same before the read, after it, and when the gate asks:
 * a file written since is hashed again, now (a write moves the status-change time, which no call can set back).
 * Every other question goes to the delegate. Nothing is hashed ahead for a path the release policy refuses by name
 * (the gate denies it without reading any file), for one reached through a symlink in any component, and nothing
 * beyond {@link #MAX_FILES} files (the rest are hashed when
 * asked, as without this class). {@link #close} cancels what is not started.
 */
public final class HashAheadTree implements LocalTree, AutoCloseable {
    /** Threads hashing ahead, shared by all requests: one per core. */
    static final int THREADS = Math.max(1, Runtime.getRuntime().availableProcessors());
    /** Files hashed ahead per request at most (bounded memory for directories of hundreds of thousands of files). */
    static final int MAX_FILES = 10_000;
    private static final ExecutorService POOL = Executors.newFixedThreadPool(THREADS, r -> {
        Thread thread = new Thread(r, "gate-hash-ahead");
        thread.setDaemon(true);
        return thread;
    });

    /** A hash taken ahead, with the stamp it holds for (null when the file moved while it was read). */
    private record Hashed(String sha256, FileStamp stamp) {
    }

    private final LocalTree delegate;
    private final Map<Path, Future<Hashed>> ahead;

    private HashAheadTree(LocalTree delegate, Map<Path, Future<Hashed>> ahead) {
        this.delegate = delegate;
        this.ahead = ahead;
    }

    /**
     * Starts hashing the regular files under {@code path} (walked without following symlinks, at most
     * {@link #MAX_FILES}) when {@code releasable} accepts it; returns at once.
     *
     * @param path       the requested directory as the request names it (anything: it is checked here)
     * @param releasable the release policy's verdict on a directory; nothing is read for one it refuses
     */
    public static HashAheadTree start(LocalTree delegate, String path, Predicate<Path> releasable) {
        Map<Path, Future<Hashed>> ahead = new LinkedHashMap<>();
        Path dir;
        try {
            dir = Path.of(path);
        } catch (InvalidPathException | NullPointerException e) {
            return new HashAheadTree(delegate, ahead);
        }
        if (!dir.isAbsolute() || !dir.equals(dir.normalize()) || !releasable.test(dir)
                || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) || !reachedWithoutSymlinks(dir)) {
            return new HashAheadTree(delegate, ahead);
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (ahead.size() >= MAX_FILES) {
                        return FileVisitResult.TERMINATE;
                    }
                    if (attrs.isRegularFile()) {
                        ahead.put(file, POOL.submit(() -> hash(delegate, file)));
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // the gate meets it again and says why
                }
            });
        } catch (IOException e) {
            // what was submitted stands; the gate lists the directory itself
        }
        return new HashAheadTree(delegate, ahead);
    }

    private static boolean reachedWithoutSymlinks(Path dir) {
        try {
            return dir.toRealPath().equals(dir);
        } catch (IOException e) {
            return false;
        }
    }

    private static Hashed hash(LocalTree delegate, Path file) throws IOException {
        FileStamp before = FileStamp.of(file);
        String sha256 = delegate.sha256(file);
        FileStamp after = FileStamp.of(file);
        return new Hashed(sha256, before.equals(after) ? before : null);
    }

    /** @return how many files are being, or were, hashed ahead */
    public int aheadCount() {
        return ahead.size();
    }

    /**
     * @return the hash taken ahead when the file's stamp is still the one it was taken under; otherwise the SHA-256
     *         computed now by the delegate
     */
    @Override
    public String sha256(Path file) throws IOException {
        Future<Hashed> pending = ahead.get(file);
        if (pending != null) {
            try {
                Hashed hashed = pending.get();
                if (hashed.stamp() != null && hashed.stamp().equals(FileStamp.of(file))) {
                    return hashed.sha256();
                }
            } catch (ExecutionException | CancellationException | IOException e) {
                // read again below, where the error (if it is one) is the gate's to report
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while hashing " + file, e);
            }
        }
        return delegate.sha256(file);
    }

    @Override
    public Object fileKey(Path path) {
        return delegate.fileKey(path);
    }

    @Override
    public EntryType typeOf(Path path) {
        return delegate.typeOf(path);
    }

    @Override
    public Path realPath(Path path) throws IOException {
        return delegate.realPath(path);
    }

    @Override
    public List<Entry> list(Path dir) throws IOException {
        return delegate.list(dir);
    }

    @Override
    public String fingerprint(Path dir) throws IOException {
        return delegate.fingerprint(dir);
    }

    @Override
    public byte[] read(Path file) throws IOException {
        return delegate.read(file);
    }

    /** Cancels every hash not started yet (a decision made without them, or a denial). */
    @Override
    public void close() {
        ahead.values().forEach(f -> f.cancel(false));
    }
}
