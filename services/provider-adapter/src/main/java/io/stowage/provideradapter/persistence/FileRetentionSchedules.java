package io.stowage.provideradapter.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;
import io.stowage.provideradapter.domain.retention.RetentionSchedule;
import io.stowage.provideradapter.domain.retention.RetentionSchedules;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * {@link RetentionSchedules} as one JSON file per run, {@code <state-dir>/retention-schedules/<sha256 of
 * "experiment/run">.json}, written to a temporary name, fsynced, renamed and the directory fsynced before
 * {@link #put} returns (a crash leaves the old or the new schedule). A file that cannot be read at open is listed in
 * {@link #unreadable}, never applied and left on disk. Synchronized: one writer at a time.
 */
public final class FileRetentionSchedules implements RetentionSchedules {
    /** Subdirectory of the state directory holding the schedules. */
    public static final String DIR_NAME = "retention-schedules";

    private final Path dir;
    private final ObjectMapper json = EventCodec.mapper();
    private final Map<String, RetentionSchedule> schedules = new TreeMap<>();
    private final List<String> unreadable = new ArrayList<>();

    private FileRetentionSchedules(Path dir) {
        this.dir = dir;
    }

    /**
     * Creates {@code <stateDir>/retention-schedules} if needed and loads every readable schedule.
     *
     * @param stateDir {@code stowage.provider-adapter.state-dir}
     * @throws IOException when the directory cannot be created or listed
     */
    public static FileRetentionSchedules open(Path stateDir) throws IOException {
        FileRetentionSchedules store = new FileRetentionSchedules(Files.createDirectories(stateDir.resolve(DIR_NAME)));
        try (Stream<Path> files = Files.list(store.dir)) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".tmp")) {
                    Files.delete(file);
                } else if (name.endsWith(".json")) {
                    store.load(file);
                }
            }
        }
        return store;
    }

    private void load(Path file) {
        try {
            RetentionSchedule schedule = json.readValue(file.toFile(), RetentionSchedule.class);
            if (schedule == null || schedule.experiment() == null || schedule.run() == null || schedule.policy() == null
                    || !(schedule.maxFraction() > 0 && schedule.maxFraction() <= 1)
                    || !file.getFileName().toString().equals(fileName(schedule.experiment(), schedule.run()) + ".json")) {
                throw new IOException("not a complete retention schedule of its own run");
            }
            schedules.put(schedule.runName(), schedule);
        } catch (IOException | RuntimeException e) {
            unreadable.add(file + " cannot be read (" + String.valueOf(e.getMessage()).replaceAll("[\\r\\n]+", " ") + ")");
        }
    }

    @Override
    public synchronized void put(RetentionSchedule schedule) throws IOException {
        String name = fileName(schedule.experiment(), schedule.run());
        AtomicFiles.replace(dir.resolve(name + ".json"), json.writeValueAsBytes(schedule));
        schedules.put(schedule.runName(), schedule);
    }

    @Override
    public synchronized Optional<RetentionSchedule> remove(String experiment, String run) throws IOException {
        Files.deleteIfExists(dir.resolve(fileName(experiment, run) + ".json"));
        AtomicFiles.syncDirectory(dir);
        return Optional.ofNullable(schedules.remove(experiment + "/" + run));
    }

    @Override
    public synchronized List<RetentionSchedule> all() {
        return schedules.values().stream().sorted(Comparator.comparing(RetentionSchedule::experiment)
                .thenComparing(RetentionSchedule::run)).toList();
    }

    @Override
    public synchronized List<String> unreadable() {
        return List.copyOf(unreadable);
    }

    private static String fileName(String experiment, String run) {
        return Sha256.of((experiment + "/" + run).getBytes(StandardCharsets.UTF_8));
    }
}
