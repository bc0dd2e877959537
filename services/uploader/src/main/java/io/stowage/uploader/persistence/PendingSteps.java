package io.stowage.uploader.persistence;

import io.stowage.events.EventCodec;
import io.stowage.events.ObjectVerified;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.LatestCheckpoint;
import io.stowage.uploader.UploaderSettings;
import io.stowage.uploader.domain.PendingStep;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The uploader's durable memory for the {@code latest} pointers, under
 * {@code <stowage.uploader.state-dir>/pointers/}: per {@link PendingStep} (a step uploaded and waiting for
 * verification) a JSON file with its files and the keys verified when it was written, and beside it an append-only
 * results log with one line per later change, {@code +"key"} (verified) or {@code -"key"} (a bad result since), the
 * key as a JSON string; and one file per run holding the step its pointer names. The JSON files are written to a
 * temporary name, fsynced and renamed, so a crash leaves the old or the new state; each log line is appended and
 * fsynced before {@link #save} returns, and a line cut short by a crash (no newline) was never acknowledged: it is
 * dropped when the log is next read. A step of n files thus costs O(n) bytes written over its n results, not the
 * O(n&sup2;) of rewriting the whole step per result. Methods are synchronized (all but {@link #holds}): the upload
 * and the verification consumers share it.
 * <p>
 * This class is the only writer of its directory, so it keeps the last steps it read or wrote in memory (at most
 * {@value #CACHED_STEPS}), each with its files indexed by key and its verified keys in a set it changes in place,
 * and answers {@link #find} and {@link #apply} from there: {@link #apply} takes constant time per result (one map
 * lookup, one appended line), so a step of n files costs O(n) over its results, not the O(n&sup2;) of copying the
 * step per result. Every change is still written and fsynced before the call returns.
 */
@ApplicationScoped
@io.quarkus.runtime.Startup // its directory is listed at start, never on the event loop that asks holds() first
public class PendingSteps {
    /** Steps kept in memory (least recently used forgotten first); each is the JSON file's content. */
    static final int CACHED_STEPS = 16;
    private final Path dir;
    // the names of the step files on disk: listed once at construction, then kept in step with every write and delete
    // of one (this class is the only writer of its directory); read without the lock by holds()
    private final Set<String> stepFiles = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Map<String, Tracked> cached = new LinkedHashMap<>(CACHED_STEPS * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Tracked> eldest) {
            return size() > CACHED_STEPS;
        }
    };

    /** A step in memory: its files by key and the keys verified now (changed in place, under this object's lock). */
    private static final class Tracked {
        private final PendingStep step;
        private final Map<String, LatestCheckpoint.File> byKey = new HashMap<>();
        private final Set<String> verified;
        private int verifiedFiles;

        Tracked(PendingStep step) {
            this.step = step;
            step.files().forEach(f -> byKey.put(f.key(), f));
            this.verified = new HashSet<>(step.verifiedKeys());
            for (String key : verified) {
                if (byKey.containsKey(key)) {
                    verifiedFiles++;
                }
            }
        }

        void mark(String key, boolean ok) {
            if (ok ? verified.add(key) : verified.remove(key)) {
                verifiedFiles += byKey.containsKey(key) ? (ok ? 1 : -1) : 0;
            }
        }

        PendingStep snapshot() {
            return new PendingStep(step.assetId(), step.experiment(), step.run(), step.step(), step.files(), verified);
        }

        boolean allVerified() {
            return verifiedFiles == step.files().size();
        }
    }

    @jakarta.inject.Inject
    PendingSteps(UploaderSettings settings) {
        this(settings.stateDir().resolve("pointers"));
    }

    /**
     * @param dir directory holding the state files (created when missing); the names of the step files in it are
     *            listed once here
     * @throws UncheckedIOException when the directory exists and cannot be listed
     */
    public PendingSteps(Path dir) {
        this.dir = dir;
        if (Files.isDirectory(dir)) {
            try (var entries = Files.list(dir)) {
                entries.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("step-") && n.endsWith(".json"))
                        .forEach(stepFiles::add);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list pending steps in " + dir + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Records (or replaces) a step waiting for verification. When the same step (same asset, run, step and files) is
     * recorded already, only the keys whose verification changed are appended to its results log; otherwise the step
     * is written whole and any results log of an earlier version is removed first.
     *
     * @throws UncheckedIOException when the state cannot be written (nothing is acknowledged then)
     */
    public synchronized void save(PendingStep step) {
        try {
            Tracked known = load(step.assetId());
            cached.remove(step.assetId());
            if (known != null && sameFiles(known.step, step)) {
                List<String> lines = new ArrayList<>();
                for (String key : known.verified) {
                    if (!step.verifiedKeys().contains(key)) {
                        lines.add(line(key, false));
                    }
                }
                for (String key : step.verifiedKeys()) {
                    if (!known.verified.contains(key)) {
                        lines.add(line(key, true));
                    }
                }
                if (!lines.isEmpty()) {
                    append(resultsFile(step.assetId()), String.join("", lines).getBytes(StandardCharsets.UTF_8));
                }
            } else {
                // the log first: a crash between the two leaves the older step without its later results (it waits
                // for results again), never older results applied over a newer step
                Files.deleteIfExists(resultsFile(step.assetId()));
                write(pendingFile(step.assetId()), EventCodec.mapper().writeValueAsBytes(step));
                stepFiles.add(stepFileName(step.assetId()));
            }
            cached.put(step.assetId(), new Tracked(step));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record pending step " + step.assetId() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Applies one verification result to the step waiting for its asset ({@link PendingStep#verdict}) in constant
     * time: when it changes a key's state, one line is appended to the results
     * log and fsynced before the change is made in memory and this returns.
     *
     * @return empty when no step waits for the result's asset; otherwise whether every file of that step is verified
     *         after the result (its newest result an OK full read; a result for another store or for a key that is
     *         not one of its files changes nothing)
     * @throws UncheckedIOException when the step cannot be read or the change cannot be written (nothing changed then)
     */
    public synchronized Optional<Boolean> apply(ObjectVerified result) {
        Tracked tracked = load(result.assetId());
        if (tracked == null) {
            return Optional.empty();
        }
        LatestCheckpoint.File file = tracked.step.concerns(result) ? tracked.byKey.get(result.key()) : null;
        Optional<Boolean> verdict = file == null ? Optional.empty() : PendingStep.verdict(file, result);
        if (verdict.isPresent() && verdict.get() != tracked.verified.contains(result.key())) {
            try {
                append(resultsFile(result.assetId()), line(result.key(), verdict.get()).getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                cached.remove(result.assetId()); // read again from disk next time: the log may hold a torn line
                throw new UncheckedIOException("cannot record result for " + result.key() + " of pending step "
                        + result.assetId() + ": " + e.getMessage(), e);
            }
            tracked.mark(result.key(), verdict.get());
        }
        return Optional.of(tracked.allVerified());
    }

    private static String line(String key, boolean verified) throws IOException {
        return (verified ? "+" : "-") + EventCodec.mapper().writeValueAsString(key) + "\n";
    }

    private static boolean sameFiles(PendingStep a, PendingStep b) {
        return a.assetId().equals(b.assetId()) && a.experiment().equals(b.experiment()) && a.run().equals(b.run())
                && a.step() == b.step() && a.files().equals(b.files());
    }

    /**
     * Records a step waiting for verification unless one with its asset id is recorded already (a redelivered event:
     * the results counted so far are kept).
     *
     * @return true when recorded now, false when a step with this asset id was already waiting
     */
    public synchronized boolean saveIfAbsent(PendingStep step) {
        if (load(step.assetId()) != null) {
            return false;
        }
        save(step);
        return true;
    }

    /**
     * @return the step waiting for verification with this asset id, if any: its JSON file with its results log
     *         applied in order (a last line without its newline is dropped from the log)
     * @throws UncheckedIOException when a file cannot be read or a complete line of the log cannot be parsed
     */
    public synchronized Optional<PendingStep> find(String assetId) {
        return Optional.ofNullable(load(assetId)).map(Tracked::snapshot);
    }

    /** @return the cached step, else the step read from its files (then cached), else null */
    private Tracked load(String assetId) {
        Tracked known = cached.get(assetId);
        if (known != null) {
            return known;
        }
        Path file = pendingFile(assetId);
        if (!Files.exists(file)) {
            return null;
        }
        try {
            PendingStep step = EventCodec.mapper().readValue(Files.readAllBytes(file), PendingStep.class);
            Tracked tracked = new Tracked(replay(step, resultsFile(assetId)));
            cached.put(assetId, tracked);
            return tracked;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read pending step " + file + ": " + e.getMessage(), e);
        }
    }

    /** Applies the results log to {@code step}; cuts a last line left without its newline by a crash. */
    private static PendingStep replay(PendingStep step, Path log) throws IOException {
        if (!Files.exists(log)) {
            return step;
        }
        byte[] bytes = Files.readAllBytes(log);
        int complete = 0;
        java.util.Set<String> keys = new java.util.TreeSet<>(step.verifiedKeys());
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] != '\n') {
                continue;
            }
            String line = new String(bytes, complete, i - complete, StandardCharsets.UTF_8);
            if (line.length() < 3 || (line.charAt(0) != '+' && line.charAt(0) != '-')) {
                throw new IOException("line at byte " + complete + " of " + log + " is not +\"key\" or -\"key\"");
            }
            String key = EventCodec.mapper().readValue(line.substring(1), String.class);
            if (line.charAt(0) == '+') {
                keys.add(key);
            } else {
                keys.remove(key);
            }
            complete = i + 1;
        }
        if (complete < bytes.length) {
            try (FileChannel channel = FileChannel.open(log, StandardOpenOption.WRITE)) {
                channel.truncate(complete);
                channel.force(true);
            }
        }
        return new PendingStep(step.assetId(), step.experiment(), step.run(), step.step(), step.files(), keys);
    }

    /**
     * Answers without the lock and without touching the disk (one hash, one set lookup), so a caller on an event loop
     * is never held by a save that is fsyncing: a step is held from the moment its file is written (before
     * {@link #save} returns) until {@link #forget} has deleted it.
     *
     * @return true when the step file of this asset id is in the directory, i.e. a step waits for verification here
     */
    public boolean holds(String assetId) {
        return stepFiles.contains(stepFileName(assetId));
    }

    /** Forgets a step (its pointer was written, or a newer one was). */
    public synchronized void forget(String assetId) {
        try {
            cached.remove(assetId);
            Files.deleteIfExists(resultsFile(assetId));
            Files.deleteIfExists(pendingFile(assetId));
            stepFiles.remove(stepFileName(assetId));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot forget pending step " + assetId + ": " + e.getMessage(), e);
        }
    }

    /** @return the step the run's {@code latest} pointer names, or -1 when this uploader never wrote one */
    public synchronized long pointedStep(String experiment, String run) {
        Path file = pointerFile(experiment, run);
        try {
            return Files.exists(file) ? Long.parseLong(Files.readString(file).trim()) : -1;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Records that the run's pointer now names {@code step}. */
    public synchronized void pointed(String experiment, String run, long step) {
        write(pointerFile(experiment, run), Long.toString(step).getBytes(StandardCharsets.UTF_8));
    }

    private Path pendingFile(String assetId) {
        return dir.resolve(stepFileName(assetId));
    }

    // the name of an asset's pending-step file in dir, as listed at start and kept in stepFiles
    private static String stepFileName(String assetId) {
        return "step-" + hash(assetId) + ".json";
    }

    private Path resultsFile(String assetId) {
        return dir.resolve("step-" + hash(assetId) + ".results");
    }

    private void append(Path file, byte[] bytes) throws IOException {
        boolean created = !Files.exists(file);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(false);
        }
        if (created) { // the new log's directory entry is durable too
            try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
                directory.force(true);
            }
        }
    }

    private Path pointerFile(String experiment, String run) {
        return dir.resolve("run-" + hash(experiment + "\n" + run) + ".step");
    }

    private void write(Path file, byte[] bytes) {
        try {
            Files.createDirectories(dir);
            Path temp = dir.resolve(file.getFileName() + ".tmp");
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                channel.write(java.nio.ByteBuffer.wrap(bytes));
                channel.force(true);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static String hash(String text) {
        return Sha256.of(text.getBytes(StandardCharsets.UTF_8));
    }
}
