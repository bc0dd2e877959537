package io.stowage.provideradapter.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.stowage.events.EventCodec;
import io.stowage.provideradapter.domain.ReleaseEntry;
import io.stowage.provideradapter.domain.ReleaseJournal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@link ReleaseJournal} as one JSON file per release request, {@code <state-dir>/releases/<request id>.json} (a
 * request id that is not a plain short name is replaced by its SHA-256): each state is written to a temporary
 * name, fsynced, renamed over the previous one and the directory fsynced before {@link #save} returns, so a crash
 * leaves the old or the new state, never half of one (a leftover {@code .tmp} is ignored and removed at open).
 * Loaded whole at open. Synchronized: one writer at a time.
 */
public final class FileReleaseJournal implements ReleaseJournal {
    /** Subdirectory of the state directory holding the entries. */
    public static final String DIR_NAME = "releases";

    private final Path dir;
    private final ObjectMapper json = EventCodec.mapper();
    private final Map<String, ReleaseEntry> entries = new HashMap<>();

    private FileReleaseJournal(Path dir) {
        this.dir = dir;
    }

    /**
     * Creates {@code <stateDir>/releases} if needed and loads every entry.
     *
     * @param stateDir {@code stowage.provider-adapter.state-dir}
     * @throws IOException when the directory cannot be created or an entry cannot be read
     */
    public static FileReleaseJournal open(Path stateDir) throws IOException {
        FileReleaseJournal journal = new FileReleaseJournal(Files.createDirectories(stateDir.resolve(DIR_NAME)));
        try (Stream<Path> files = Files.list(journal.dir)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".tmp")) {
                    Files.delete(file); // a state torn by a crash before its rename: the previous state holds
                } else if (name.endsWith(".json")) {
                    ReleaseEntry entry = journal.json.readValue(file.toFile(), ReleaseEntry.class);
                    journal.entries.put(entry.requestId(), entry);
                }
            }
        }
        return journal;
    }

    @Override
    public synchronized Optional<ReleaseEntry> entry(String requestId) {
        return Optional.ofNullable(entries.get(requestId));
    }

    @Override
    public synchronized void save(ReleaseEntry entry) throws IOException {
        AtomicFiles.replace(dir.resolve(fileName(entry.requestId()) + ".json"), json.writeValueAsBytes(entry));
        entries.put(entry.requestId(), entry);
    }

    @Override
    public synchronized List<ReleaseEntry> entries() {
        return entries.values().stream().sorted(Comparator.comparing(ReleaseEntry::updatedAt)
                .thenComparing(ReleaseEntry::requestId)).toList();
    }

    /** @return the number of entries */
    public synchronized int size() {
        return entries.size();
    }

    private static String fileName(String requestId) {
        if (requestId.matches("[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}")) {
            return requestId;
        }
        try {
            return "sha256-" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(requestId.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
