package io.stowage.provideradapter.persistence;

import io.stowage.provideradapter.domain.DecisionJournal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;

/**
 * {@link DecisionJournal} as an append-only text file {@code executed-gate-decisions.log} (one
 * decision id per line, UTF-8) in the state directory: loaded whole at open, each new id appended
 * and fsynced ({@link FileChannel#force}) before {@link #record} returns. A line torn by a crash is
 * closed with a newline at the next open (it was never acted on: the id is fsynced before acting).
 */
public final class FileDecisionJournal implements DecisionJournal {
    /** File name inside the state directory. */
    public static final String FILE_NAME = "executed-gate-decisions.log";

    private final Path file;
    private final Set<String> executed;

    private FileDecisionJournal(Path file, Set<String> executed) {
        this.file = file;
        this.executed = executed;
    }

    /**
     * Creates the state directory if needed and loads the journal.
     *
     * @param stateDir {@code stowage.provider-adapter.state-dir}
     * @throws IOException when the directory or file cannot be created, read or repaired
     */
    public static FileDecisionJournal open(Path stateDir) throws IOException {
        Files.createDirectories(stateDir);
        Path file = stateDir.resolve(FILE_NAME);
        Set<String> ids = new HashSet<>();
        if (Files.exists(file)) {
            byte[] bytes = Files.readAllBytes(file);
            for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    ids.add(line.strip());
                }
            }
            if (bytes.length > 0 && bytes[bytes.length - 1] != '\n') {
                append(file, "\n");
            }
        }
        return new FileDecisionJournal(file, ids);
    }

    @Override
    public synchronized boolean executed(String decisionId) {
        return executed.contains(decisionId);
    }

    @Override
    public synchronized void record(String decisionId) throws IOException {
        if (decisionId.isBlank() || decisionId.chars().anyMatch(c -> c == '\n' || c == '\r')) {
            throw new IOException("a decision id must be one non-blank line");
        }
        append(file, decisionId + "\n");
        executed.add(decisionId);
    }

    /** @return the number of decisions recorded */
    public synchronized int size() {
        return executed.size();
    }

    private static void append(Path file, String text) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer buffer = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
    }
}
