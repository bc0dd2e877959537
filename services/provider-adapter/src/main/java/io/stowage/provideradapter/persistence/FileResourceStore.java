package io.stowage.provideradapter.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.stowage.events.EventCodec;
import io.stowage.provideradapter.domain.resource.ManagedPod;
import io.stowage.provideradapter.domain.resource.ManagedVolume;
import io.stowage.provideradapter.domain.resource.ResourceStore;
import io.stowage.provideradapter.domain.resource.RunCap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Keeps each managed volume and pod as one JSON file, {@code <state-dir>/volumes/<id>.json} and
 * {@code <state-dir>/pods/<id>.json} (run caps: {@code runs/<run id>.json}), written to a temporary name, fsynced and renamed into place, so a crash
 * leaves the old or the new record, never half of one. Synchronized: one writer at a time.
 */
public final class FileResourceStore implements ResourceStore {
    private final Path volumes;
    private final Path pods;
    private final Path runs;
    private final ObjectMapper json = EventCodec.mapper();

    /** @param stateDir {@code stowage.provider-adapter.state-dir}; its subdirectories are created when missing */
    public FileResourceStore(Path stateDir) throws IOException {
        this.volumes = Files.createDirectories(stateDir.resolve("volumes"));
        this.pods = Files.createDirectories(stateDir.resolve("pods"));
        this.runs = Files.createDirectories(stateDir.resolve("runs"));
    }

    @Override
    public synchronized void save(ManagedVolume volume) {
        write(volumes, volume.id(), volume);
    }

    @Override
    public synchronized void save(ManagedPod pod) {
        write(pods, pod.id(), pod);
    }

    @Override
    public synchronized Optional<ManagedVolume> volume(String id) {
        return read(volumes, id, ManagedVolume.class);
    }

    @Override
    public synchronized Optional<ManagedPod> pod(String id) {
        return read(pods, id, ManagedPod.class);
    }

    @Override
    public synchronized List<ManagedVolume> volumes() {
        return all(volumes, ManagedVolume.class).stream()
                .sorted(Comparator.comparing(ManagedVolume::createdAt).thenComparing(ManagedVolume::id)).toList();
    }

    @Override
    public synchronized List<ManagedPod> pods() {
        return all(pods, ManagedPod.class).stream()
                .sorted(Comparator.comparing(ManagedPod::createdAt).thenComparing(ManagedPod::id)).toList();
    }

    @Override
    public synchronized void save(RunCap cap) {
        write(runs, cap.runId(), cap);
    }

    @Override
    public synchronized List<RunCap> runCaps() {
        return all(runs, RunCap.class).stream().sorted(Comparator.comparing(RunCap::runId)).toList();
    }

    private void write(Path dir, String id, Object record) {
        Path target = dir.resolve(fileName(id));
        Path temp = dir.resolve(fileName(id) + ".tmp");
        try {
            Files.write(temp, json.writeValueAsBytes(record));
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target, e);
        }
    }

    private <T> Optional<T> read(Path dir, String id, Class<T> type) {
        if (id == null || !id.matches("[A-Za-z0-9._-]+") || id.startsWith(".")) {
            return Optional.empty();
        }
        Path file = dir.resolve(fileName(id));
        try {
            return Files.exists(file) ? Optional.of(json.readValue(file.toFile(), type)) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private <T> List<T> all(Path dir, Class<T> type) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".json")).map(p -> {
                try {
                    return json.readValue(p.toFile(), type);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read " + p, e);
                }
            }).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static String fileName(String id) {
        return id + ".json";
    }
}
