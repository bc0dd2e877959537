package io.stowage.cli.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * The steps a {@code stowage watch} of one run has published, kept in
 * {@code $STOWAGE_HOME/state/watch-<experiment>-<run>.json} as
 * {@code {"experiment":…,"run":…,"published":[N,…]}}; every change is written to a temporary file,
 * fsynced and renamed over the old one, so a crash leaves the old or the new state, never half.
 */
public final class WatchState {
    private final Path file;
    private final String experiment;
    private final String run;
    private final TreeSet<Long> published = new TreeSet<>();

    private WatchState(Path file, String experiment, String run) {
        this.file = file;
        this.experiment = experiment;
        this.run = run;
    }

    /** @return the state file of one run under {@code stateDir} */
    public static Path fileFor(Path stateDir, String experiment, String run) {
        return stateDir.resolve("watch-" + experiment + "-" + run + ".json");
    }

    /**
     * @return the state in {@code file}, empty when the file does not exist
     * @throws CliException (exit 1) when the file exists but cannot be read or parsed, or names another run
     */
    public static WatchState load(Path file, String experiment, String run) {
        WatchState state = new WatchState(file, experiment, run);
        if (Files.exists(file)) {
            try {
                JsonNode node = EventCodec.mapper().readTree(file.toFile());
                if (!experiment.equals(node.path("experiment").asText()) || !run.equals(node.path("run").asText())) {
                    // e.g. experiment "a-b" run "c" and experiment "a" run "b-c" share a file name
                    throw new CliException(CliException.FAILED, "watch state " + file + " belongs to "
                            + node.path("experiment").asText() + "/" + node.path("run").asText() + ", not " + experiment + "/" + run);
                }
                node.path("published").forEach(step -> state.published.add(step.asLong()));
            } catch (IOException e) {
                throw new CliException(CliException.FAILED, "cannot read watch state " + file + ": " + e.getMessage(), e);
            }
        }
        return state;
    }

    /** @return the published steps, ascending (unmodifiable view) */
    public Set<Long> published() {
        return Collections.unmodifiableSet(published);
    }

    /** @return the highest published step, or null when none is */
    public Long last() {
        return published.isEmpty() ? null : published.last();
    }

    /**
     * Adds {@code step} and writes the state atomically.
     *
     * @throws CliException (exit 1) when the file cannot be written
     */
    public void record(long step) {
        published.add(step);
        ObjectNode node = EventCodec.mapper().createObjectNode().put("experiment", experiment).put("run", run);
        com.fasterxml.jackson.databind.node.ArrayNode steps = node.putArray("published");
        for (long s : published) {
            steps.add(s);
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.createDirectories(file.getParent());
            Files.write(tmp, EventCodec.mapper().writeValueAsBytes(node));
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot write watch state " + file + ": " + e.getMessage(), e);
        }
    }
}
