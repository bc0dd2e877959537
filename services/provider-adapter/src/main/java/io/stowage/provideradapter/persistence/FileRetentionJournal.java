package io.stowage.provideradapter.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.stowage.events.EventCodec;
import io.stowage.provideradapter.domain.retention.RetentionEntry;
import io.stowage.provideradapter.domain.retention.RetentionJournal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@link RetentionJournal} as one JSON file per retention decision, {@code <state-dir>/retention/<decision id>.json}
 * (a decision id that is not a plain short name is replaced by its SHA-256): each state is written to a temporary
 * name, fsynced, renamed over the previous one and the directory fsynced before {@link #save} returns, so a crash
 * leaves the old or the new state, never half of one (a leftover {@code .tmp} is ignored and removed at open). A file
 * that cannot be read at open (torn by a disk fault, or altered) is listed in {@link #unreadable} and left on disk:
 * it is never executed, so nothing it names is deleted, and it is never overwritten (a replay of its decision cannot
 * be journaled and so deletes nothing). Loaded whole at open. Synchronized: one writer at a time.
 */
public final class FileRetentionJournal implements RetentionJournal {
    /** Subdirectory of the state directory holding the entries. */
    public static final String DIR_NAME = "retention";

    private final Path dir;
    private final ObjectMapper json = EventCodec.mapper();
    private final Map<String, RetentionEntry> entries = new HashMap<>();
    private final List<String> unreadable = new ArrayList<>();
    private final Set<Path> unreadableFiles = new HashSet<>();

    private FileRetentionJournal(Path dir) {
        this.dir = dir;
    }

    /**
     * Creates {@code <stateDir>/retention} if needed and loads every readable entry.
     *
     * @param stateDir {@code stowage.provider-adapter.state-dir}
     * @throws IOException when the directory cannot be created or listed
     */
    public static FileRetentionJournal open(Path stateDir) throws IOException {
        FileRetentionJournal journal = new FileRetentionJournal(Files.createDirectories(stateDir.resolve(DIR_NAME)));
        try (Stream<Path> files = Files.list(journal.dir)) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".tmp")) {
                    Files.delete(file); // a state torn by a crash before its rename: the previous state holds
                } else if (name.endsWith(".json")) {
                    journal.load(file);
                }
            }
        }
        return journal;
    }

    private void load(Path file) {
        try {
            RetentionEntry entry = json.readValue(file.toFile(), RetentionEntry.class);
            if (entry == null || entry.decisionId() == null || entry.state() == null || entry.decision() == null
                    || entry.steps() == null || !file.getFileName().toString().equals(fileName(entry.decisionId())
                    + ".json")) {
                throw new IOException("not a complete retention entry of its own decision id");
            }
            entries.put(entry.decisionId(), entry);
        } catch (IOException | RuntimeException e) {
            unreadableFiles.add(file);
            unreadable.add(file + " cannot be read (" + e.getMessage().replaceAll("[\\r\\n]+", " ") + ")");
        }
    }

    @Override
    public synchronized Optional<RetentionEntry> entry(String decisionId) {
        return Optional.ofNullable(entries.get(decisionId));
    }

    @Override
    public synchronized void save(RetentionEntry entry) throws IOException {
        Path target = dir.resolve(fileName(entry.decisionId()) + ".json");
        if (unreadableFiles.contains(target)) {
            throw new IOException(target + " could not be read at start and is kept for an operator; not overwritten");
        }
        AtomicFiles.replace(target, json.writeValueAsBytes(entry));
        entries.put(entry.decisionId(), entry);
    }

    @Override
    public synchronized List<RetentionEntry> entries() {
        return entries.values().stream().sorted(Comparator.comparing(RetentionEntry::updatedAt)
                .thenComparing(RetentionEntry::decisionId)).toList();
    }

    @Override
    public synchronized List<String> unreadable() {
        return List.copyOf(unreadable);
    }

    /** @return the number of readable entries */
    public synchronized int size() {
        return entries.size();
    }

    private static String fileName(String decisionId) {
        if (decisionId.matches("[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}")) {
            return decisionId;
        }
        try {
            return "sha256-" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(decisionId.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
