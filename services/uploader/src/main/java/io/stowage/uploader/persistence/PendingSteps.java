package io.stowage.uploader.persistence;

import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The uploader's durable memory for the {@code latest} pointers, under
 * {@code <stowage.uploader.state-dir>/pointers/}: per {@link PendingStep} (a step uploaded and waiting for
 * verification) a JSON file with its files and the keys verified when it was written, and beside it an append-only
 * results log with one line per later change, {@code +"key"} (verified) or {@code -"key"} (a bad result since), the
 * key as a JSON string; and one file per run holding the step its pointer names. The JSON files are written to a
 * temporary name, fsynced and renamed, so a crash leaves the old or the new state; each log line is appended and
 * fsynced before {@link #save} returns, and a line cut short by a crash (no newline) was never acknowledged: it is
 * dropped when the log is next read. A step of n files thus costs O(n) bytes written over its n results, not the
 * O(n&sup2;) of rewriting the whole step per result. Methods are synchronized: the upload and the verification
 * consumers share it.
 * <p>
 * This class is the only writer of its directory, so it keeps the last steps it read or wrote in memory (at most
 * {@value #CACHED_STEPS}) and answers {@link #find} from there. Every change is still written and fsynced before
 * the call returns.
 */
@ApplicationScoped
public class PendingSteps {
    /** Steps kept in memory (least recently used forgotten first); each is the JSON file's content. */
    static final int CACHED_STEPS = 16;
    private final Path dir;
    private final Map<String, PendingStep> cached = new LinkedHashMap<>(CACHED_STEPS * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PendingStep> eldest) {
            return size() > CACHED_STEPS;
        }
    };

    @jakarta.inject.Inject
    PendingSteps(UploaderSettings settings) {
        this(settings.stateDir().resolve("pointers"));
    }

    /** @param dir directory holding the state files (created when missing) */
    public PendingSteps(Path dir) {
        this.dir = dir;
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
            PendingStep known = find(step.assetId()).orElse(null);
            cached.remove(step.assetId());
            if (known != null && sameFiles(known, step)) {
                List<String> lines = new ArrayList<>();
                for (String key : known.verifiedKeys()) {
                    if (!step.verifiedKeys().contains(key)) {
                        lines.add("-" + EventCodec.mapper().writeValueAsString(key) + "\n");
                    }
                }
                for (String key : step.verifiedKeys()) {
                    if (!known.verifiedKeys().contains(key)) {
                        lines.add("+" + EventCodec.mapper().writeValueAsString(key) + "\n");
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
            }
            cached.put(step.assetId(), step);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record pending step " + step.assetId() + ": " + e.getMessage(), e);
        }
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
        if (find(step.assetId()).isPresent()) {
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
        PendingStep known = cached.get(assetId);
        if (known != null) {
            return Optional.of(known);
        }
        Path file = pendingFile(assetId);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            PendingStep step = EventCodec.mapper().readValue(Files.readAllBytes(file), PendingStep.class);
            step = replay(step, resultsFile(assetId));
            cached.put(assetId, step);
            return Optional.of(step);
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

    /** Forgets a step (its pointer was written, or a newer one was). */
    public synchronized void forget(String assetId) {
        try {
            cached.remove(assetId);
            Files.deleteIfExists(resultsFile(assetId));
            Files.deleteIfExists(pendingFile(assetId));
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
        return dir.resolve("step-" + hash(assetId) + ".json");
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
