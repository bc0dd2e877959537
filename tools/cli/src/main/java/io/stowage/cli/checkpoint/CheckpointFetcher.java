package io.stowage.cli.checkpoint;

import io.stowage.cli.CliException;
import io.stowage.events.InvalidEventException;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.store.StoreException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Consumes the objects of one stored checkpoint step (listed under {@code checkpoints/<E>/<R>/}, or named
 * by the run's {@code latest.json} pointer, see {@link LatestPointer})
 * and produces its files in a local directory: each object is streamed into a temporary file
 * under {@code DIR/.stowage-fetch/} while its SHA-256 is recomputed, then fsynced; only when every file
 * matches the SHA-256 its key names are they renamed into {@code DIR/<path>}. A mismatch deletes
 * every temporary file and leaves no file of the step behind; a failed fetch also removes the directories it created
 * for the target (never one that existed before). {@code checkpoint fetch --step} goes through {@link #fetchPublished},
 * which fetches the step's file list as published and fails on a file the store lacks; the listing alone
 * ({@link #fetch} with a step number) only says what the store holds now.
 */
public final class CheckpointFetcher {
    /** Hidden directory inside the target that holds files still being downloaded. */
    public static final String TEMP_DIR = ".stowage-fetch";
    private static final int BUFFER = 1 << 20;

    /** Where the fetcher reads: a key listing and an object's bytes. */
    public interface Source {
        /** @return every key under {@code prefix}, lexical order */
        List<String> list(String prefix);

        /** @return the bytes of the object at {@code key}; the caller closes the stream */
        InputStream open(String key);
    }

    private final Source source;
    private final Source replica;
    private final java.util.function.Consumer<String> notice;

    /** Reads every object from {@code source} only. */
    public CheckpointFetcher(Source source) {
        this(source, null, message -> { });
    }

    /**
     * @param source  the primary store (listing, pointer, objects)
     * @param replica the replica store, read only for a file whose primary copy is missing, unreadable or fails
     *                its SHA-256 (key checkpoints have a second copy there under the same key); null for none
     * @param notice  told, in one line, about each file taken from the replica
     */
    public CheckpointFetcher(Source source, Source replica, java.util.function.Consumer<String> notice) {
        this.source = source;
        this.replica = replica;
        this.notice = notice;
    }

    /**
     * @return the step the run's {@code latest.json} names (the newest step whose every file was verified), or empty
     *         when the run has no pointer yet
     * @throws CliException exit 1 when the pointer cannot be read or is malformed; exit 2 for a bad name
     */
    public java.util.Optional<Long> latestStep(String experiment, String run) {
        String key;
        try {
            key = ObjectKeys.checkpointLatest(experiment, run);
        } catch (InvalidEventException e) {
            throw new CliException(CliException.USAGE, e.getMessage());
        }
        if (source.list(key).stream().noneMatch(key::equals)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(LatestPointer.read(source, experiment, run, key).step());
    }

    /**
     * @param step the step to fetch, or null for the step the run's {@code latest.json} pointer names
     *             (written by the uploader only once every file of that step was verified)
     * @param to   a missing or empty directory (created when missing)
     * @return the step and the files written, with the SHA-256 each was verified against
     * @throws CliException exit 2 for a bad name or a non-empty {@code to}; exit 1 when the step (or the
     *                      pointer) is not stored, the pointer is malformed, the store fails, or a file's
     *                      SHA-256 differs from its key
     */
    public StoredCheckpoint fetch(String experiment, String run, Long step, Path to) {
        return fetch(experiment, run, step, to, located -> { });
    }

    /**
     * As {@link #fetch(String, String, Long, Path)}, telling {@code located} the step's number once it is known (for
     * {@code --latest}, read from the pointer) and before any file is read or any directory created: a fetch for a
     * resume leases the step there, and an exception thrown there ends the fetch with nothing written. The latest step
     * goes through {@link #fetchPublished} with the pointer's file list: a file the pointer names but no store holds
     * fails the fetch, naming it, before {@code located} is told (nothing leased for a step that cannot be fetched).
     */
    public StoredCheckpoint fetch(String experiment, String run, Long step, Path to, java.util.function.LongConsumer located) {
        try {
            ObjectKeys.checkpointLatest(experiment, run);
        } catch (InvalidEventException e) {
            throw new CliException(CliException.USAGE, e.getMessage());
        }
        Path dir = to.toAbsolutePath().normalize();
        checkTarget(dir);
        StoredCheckpoint checkpoint = locate(experiment, run, step);
        if (step == null) {
            return fetchPublished(experiment, run, checkpoint, to, located);
        }
        located.accept(checkpoint.step());
        downloadInto(checkpoint.files(), dir, 1);
        return checkpoint;
    }

    /**
     * Fetches exactly the files {@code published} names (the step's file list as published, e.g. from the ledger through
     * {@link LedgerSteps#published}), never what the store's listing happens to hold: before {@code located} is told
     * the step and before any directory is created, the step's prefix is listed in the primary store (and the replica,
     * when given and a primary copy is missing; an unreachable replica counts as holding none); a file in neither fails
     * the fetch. Then as {@link #fetch(String, String, Long, Path,
     * java.util.function.LongConsumer)}: every file is verified against its SHA-256 and renamed into place only when
     * all are.
     *
     * @param published the step and its files; every key a content address of {@code experiment/run}
     * @return {@code published}, every file of it written into {@code to}
     * @throws CliException exit 2 for a bad name or a non-empty {@code to}; exit 1 naming every missing file (path and
     *                      key) when any is in no store, with nothing written, or as the other fetch
     */
    public StoredCheckpoint fetchPublished(String experiment, String run, StoredCheckpoint published, Path to,
                                           java.util.function.LongConsumer located) {
        String stepPrefix;
        try {
            stepPrefix = ObjectKeys.checkpointLatest(experiment, run).replaceFirst("latest\\.json$", "")
                    + ObjectKeys.paddedStep(published.step()) + "/";
        } catch (InvalidEventException e) {
            throw new CliException(CliException.USAGE, e.getMessage());
        }
        Path dir = to.toAbsolutePath().normalize();
        checkTarget(dir);
        java.util.Set<String> stored = new java.util.HashSet<>(listing(source, stepPrefix));
        if (replica != null && published.files().stream().anyMatch(f -> !stored.contains(f.key()))) {
            try {
                stored.addAll(replica.list(stepPrefix));
            } catch (StoreException e) {
                // the replica only stands in for missing primary copies: unreachable, it holds none
            }
        }
        List<String> missing = published.files().stream().filter(f -> !stored.contains(f.key()))
                .map(f -> f.path() + " (" + f.key() + ")").toList();
        if (!missing.isEmpty()) {
            throw new CliException(CliException.FAILED, "step " + published.step() + " of " + experiment + "/" + run
                    + " is incomplete in the store: " + missing.size() + " of its " + published.files().size()
                    + " published files missing: " + String.join(", ", missing) + "; nothing fetched");
        }
        located.accept(published.step());
        downloadInto(published.files(), dir, 1);
        return published;
    }

    private static List<String> listing(Source from, String prefix) {
        try {
            return from.list(prefix);
        } catch (StoreException e) {
            throw new CliException(CliException.FAILED, "cannot list " + prefix + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
    }

    /**
     * Creates {@code dir} (and its missing parents) and {@link #download downloads} {@code files} into it; when the
     * download fails, the directories this call created are removed again (each only while empty), so a failed fetch
     * leaves the file system as it found it.
     *
     * @param dir a missing or empty directory, absolute (see {@link #requireEmptyOrMissing})
     * @throws CliException exit 2 when {@code dir} cannot be created; otherwise as {@link #download}
     */
    public void downloadInto(List<StoredCheckpoint.StoredFile> files, Path dir, int parallel) {
        List<Path> created = createTarget(dir);
        try {
            download(files, dir, parallel);
        } catch (RuntimeException e) {
            removeCreated(created);
            throw e;
        }
    }

    /**
     * @param step the step, or null for the step the run's {@code latest.json} pointer names
     * @return the stored step's files (key, SHA-256, path), read from the listing or the pointer; nothing is downloaded
     * @throws CliException exit 2 for a bad name; exit 1 when the step or pointer is not stored or the store fails
     */
    public StoredCheckpoint locate(String experiment, String run, Long step) {
        String latestKey;
        try {
            latestKey = ObjectKeys.checkpointLatest(experiment, run);
        } catch (InvalidEventException e) {
            throw new CliException(CliException.USAGE, e.getMessage());
        }
        String prefix = latestKey.replaceFirst("latest\\.json$", "");
        return step == null ? LatestPointer.read(source, experiment, run, latestKey) : listed(experiment, run, prefix, step);
    }

    /**
     * Downloads {@code files} into {@code dir}, {@code parallel} at a time: each object is streamed into
     * {@code dir/.stowage-fetch/<path>} while its SHA-256 is recomputed, then fsynced; only when every file matches the
     * SHA-256 it is listed with are they renamed into {@code dir/<path>}. At the first failure the other downloads stop
     * at their next read and every temporary file is deleted. Used by {@code checkpoint fetch} and {@code model fetch}.
     *
     * @param dir an existing empty directory (see {@link #downloadInto}, which creates it)
     * @throws CliException exit 1 when an object cannot be read, differs from its SHA-256, or {@code dir} cannot be
     *                      written (or a local volume's quota would be passed)
     */
    public void download(List<StoredCheckpoint.StoredFile> files, Path dir, int parallel) {
        Path temp = dir.resolve(TEMP_DIR);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.max(1, Math.min(parallel, files.size())));
        try {
            // a target on a local provider volume: refuse bytes past its quota, counted as they stream
            QuotaBudget budget = QuotaBudget.of(dir);
            java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
            List<java.util.concurrent.Future<?>> running = new ArrayList<>();
            for (StoredCheckpoint.StoredFile file : files) {
                running.add(pool.submit(() -> {
                    try {
                        fetchOne(file, temp.resolve(file.path()), budget, failed);
                    } catch (RuntimeException | IOException e) {
                        failed.set(true);
                        throw new java.util.concurrent.CompletionException(e);
                    }
                    return null;
                }));
            }
            Throwable first = null;
            for (java.util.concurrent.Future<?> one : running) {
                try {
                    one.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    Throwable cause = e.getCause() instanceof java.util.concurrent.CompletionException c ? c.getCause() : e.getCause();
                    first = first == null || first instanceof Aborted ? cause : first;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new CliException(CliException.FAILED, "interrupted while fetching into " + dir, e);
                }
            }
            if (first instanceof CliException cli) {
                throw cli;
            }
            if (first instanceof IOException io) {
                throw io;
            }
            if (first != null) {
                throw (RuntimeException) first;
            }
            for (StoredCheckpoint.StoredFile file : files) {
                Path target = dir.resolve(file.path());
                Files.createDirectories(target.getParent());
                Files.move(temp.resolve(file.path()), target, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (io.stowage.events.VolumeQuota.QuotaExceededException e) {
            throw new CliException(CliException.FAILED, "refusing to fetch into " + dir + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot write into " + dir + ": " + e.getMessage(), e);
        } finally {
            pool.shutdownNow();
            deleteTree(temp);
        }
    }

    /** The asked step has no object in the primary store's listing (exit 1); the caller may say why from the ledger. */
    public static final class NotStored extends CliException {
        NotStored(String message) {
            super(CliException.FAILED, message);
        }
    }

    /** Thrown by a download that stops because another one failed; never the failure reported. */
    private static final class Aborted extends CliException {
        Aborted() {
            super(CliException.FAILED, "stopped: another file failed");
        }
    }

    private StoredCheckpoint listed(String experiment, String run, String prefix, long step) {
        try {
            return StoredCheckpoint.select(prefix, source.list(prefix), step).orElseThrow(() -> new NotStored(
                    "no step " + step + " of " + experiment + "/" + run + " in the primary store"));
        } catch (StoreException e) {
            throw new CliException(CliException.FAILED, "cannot list " + prefix + ": " + e.getMessage(), e);
        }
    }

    /** The primary copy, or when it fails and a replica is given, the replica's copy of the same key. */
    // a replica retry spends the quota budget again for the same file: conservative, it refuses early rather than late
    private void fetchOne(StoredCheckpoint.StoredFile file, Path temp, QuotaBudget budget,
                          java.util.concurrent.atomic.AtomicBoolean failed) throws IOException {
        try {
            download(source, file, temp, budget, failed);
        } catch (CliException primaryFailed) {
            if (replica == null || primaryFailed instanceof Aborted) {
                throw primaryFailed;
            }
            try {
                download(replica, file, temp, budget, failed);
            } catch (CliException replicaFailed) {
                throw new CliException(CliException.FAILED, primaryFailed.getMessage() + "; replica: "
                        + replicaFailed.getMessage(), replicaFailed);
            }
            notice.accept(file.path() + " taken from the replica store (primary: " + primaryFailed.getMessage() + ")");
        }
    }

    private void download(Source from, StoredCheckpoint.StoredFile file, Path temp, QuotaBudget budget,
                          java.util.concurrent.atomic.AtomicBoolean failed) throws IOException {
        Files.createDirectories(temp.getParent());
        MessageDigest digest = Sha256.newDigest();
        try (InputStream in = from.open(file.key());
             OutputStream out = new DigestOutputStream(Files.newOutputStream(temp), digest)) {
            byte[] buffer = new byte[BUFFER];
            for (int n = read(in, buffer, file); n >= 0; n = read(in, buffer, file)) {
                if (failed.get()) {
                    throw new Aborted();
                }
                budget.spend(n);
                out.write(buffer, 0, n);
            }
        } catch (StoreException e) {
            throw new CliException(CliException.FAILED, "cannot read " + file.key() + ": " + e.getMessage(), e);
        }
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        String actual = Sha256.hex(digest);
        if (!actual.equals(file.sha256())) {
            Files.deleteIfExists(temp);
            throw new CliException(CliException.FAILED, "refusing " + file.path() + " (" + file.key() + "): expected sha256 "
                    + file.sha256() + ", got " + actual);
        }
    }

    /** A broken download names the object, not the target directory. */
    private static int read(InputStream in, byte[] buffer, StoredCheckpoint.StoredFile file) {
        try {
            return in.read(buffer);
        } catch (IOException | RuntimeException e) {
            throw new CliException(CliException.FAILED, "download of " + file.key() + " broke: " + e.getMessage(), e);
        }
    }

    /**
     * Checks a fetch target before anything is read from the store; creates nothing.
     *
     * @throws CliException exit 2 when {@code dir} exists and is not an empty directory
     */
    public static void requireEmptyOrMissing(Path dir) {
        checkTarget(dir);
    }

    /** @throws CliException exit 2 when {@code dir} exists and is not an empty directory; creates nothing */
    private static void checkTarget(Path dir) {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                throw new CliException(CliException.USAGE, "--to " + dir + " is not a directory");
            }
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new CliException(CliException.USAGE, "--to " + dir + " is not empty: fetch into a new or empty directory");
                }
            } catch (IOException e) {
                throw new CliException(CliException.USAGE, "cannot read --to " + dir + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Creates {@code dir} and its missing parents.
     *
     * @return the directories this call created, {@code dir} first (empty when it existed)
     * @throws CliException exit 2 when it cannot be created (what was created is removed again)
     */
    private static List<Path> createTarget(Path dir) {
        List<Path> missing = new ArrayList<>();
        for (Path p = dir; p != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS); p = p.getParent()) {
            missing.add(p);
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            removeCreated(missing);
            throw new CliException(CliException.USAGE, "cannot create --to " + dir + ": " + e.getMessage(), e);
        }
        return missing;
    }

    /** Removes the directories {@link #createTarget} made, deepest first, each only while it is empty. */
    private static void removeCreated(List<Path> created) {
        for (Path p : created) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                return; // not empty, or not ours to remove any more: keep it and its parents
            }
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        List<Path> paths = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(paths::add);
            for (Path path : paths) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot remove temporary files under " + root + ": " + e.getMessage(), e);
        }
    }
}
