package io.stowage.cli.run;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.InvalidEventException;
import io.stowage.events.RunFinished;
import io.stowage.events.RunProgress;
import io.stowage.events.RunStarted;
import io.stowage.events.RunTimes;
import io.stowage.events.StowageEvent;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Reads the trainer's run file, {@code RUN_DIR/.stowage-run.jsonl}, as it grows: one JSON object a line, appended
 * and flushed by the trainer, each turned into the event it names ({@code run.started}, {@code run.progress},
 * {@code run.finished}; docs/runs.md gives the fields). A line without its newline is not read yet; a line that
 * does not parse or validate is reported and skipped. The event id is derived from the run and the line's text, so a
 * restarted watch that reads the file again sends the same ids and the ledger counts each line once.
 */
public final class RunFile {
    /** The file's name in the run directory. */
    public static final String NAME = ".stowage-run.jsonl";

    private final Path file;
    private final String experiment;
    private final String run;
    private final String resources;
    private long offset;

    /**
     * @param resources the provider run id of the run's pods and volumes (put into run.started), null when unknown
     */
    public RunFile(Path runDir, String experiment, String run, String resources) {
        this.file = runDir.resolve(NAME);
        this.experiment = experiment;
        this.run = run;
        this.resources = resources;
    }

    /** One line read: its event, or why it was skipped. */
    public record Line(StowageEvent event, String problem) {
    }

    /** @return the complete lines appended since the last call, in file order; empty when there is no file */
    public List<Line> read() {
        List<Line> lines = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return lines;
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            if (in.length() < offset) {
                offset = 0; // replaced by a new file: read it from the start
            }
            byte[] rest = new byte[(int) Math.min(in.length() - offset, 16 << 20)];
            in.seek(offset);
            in.readFully(rest);
            int start = 0;
            for (int i = 0; i < rest.length; i++) {
                if (rest[i] == '\n') {
                    String text = new String(rest, start, i - start, StandardCharsets.UTF_8).strip();
                    if (!text.isEmpty()) {
                        lines.add(parse(text));
                    }
                    start = i + 1;
                }
            }
            offset += start;
        } catch (IOException e) {
            lines.add(new Line(null, "cannot read " + file + ": " + e.getMessage()));
        }
        return lines;
    }

    /** @return the event one line of the run file stands for; a problem for a line that is not one */
    Line parse(String text) {
        try {
            JsonNode line = EventCodec.mapper().readTree(text);
            String kind = line.path("event").asText();
            String attempt = line.path("attemptId").asText(null);
            Instant at = Instant.parse(line.path("at").asText());
            EventMeta meta = new EventMeta(UUID.nameUUIDFromBytes((experiment + "/" + run + "\n" + text)
                    .getBytes(StandardCharsets.UTF_8)).toString(), EventMeta.CURRENT_VERSION, at,
                    "run/" + experiment + "/" + run, null);
            return new Line(switch (kind) {
                case "run.started" -> RunStarted.of(meta, experiment, run, attempt,
                        line.hasNonNull("resumedFromStep") ? line.get("resumedFromStep").asLong() : null, resources);
                case "run.progress" -> RunProgress.of(meta, experiment, run, attempt, line.path("step").asLong(), times(line));
                case "run.finished" -> RunFinished.of(meta, experiment, run, attempt, line.path("step").asLong(), times(line),
                        line.path("outcome").asText(null), line.path("reason").asText(null));
                default -> throw new InvalidEventException("event must be run.started, run.progress or run.finished: " + kind);
            }, null);
        } catch (IOException | RuntimeException e) {
            return new Line(null, NAME + ": skipped a line (" + e.getMessage() + "): " + abbreviate(text));
        }
    }

    private static RunTimes times(JsonNode line) {
        return new RunTimes(line.path("wallSeconds").asDouble(), line.path("trainingSeconds").asDouble(),
                line.path("dataWaitSeconds").asDouble(), line.path("checkpointSeconds").asDouble());
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }
}
