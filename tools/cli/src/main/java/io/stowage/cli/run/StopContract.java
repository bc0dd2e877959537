package io.stowage.cli.run;

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
import java.time.Instant;
import java.util.Optional;

/**
 * The two files by which Stowage asks a trainer for a last checkpoint and the trainer answers, in the run directory
 * beside the step directories (both names start with {@code .}, so no scan takes them for a step):
 * <ul>
 * <li>{@value #REQUEST}: {@code {"requestId":…,"reason":…,"requestedAt":ISO-8601,"deadline":ISO-8601}}, written by
 * Stowage, temporary name + fsync + rename; the trainer looks for it after every optimizer step, and at once on
 * {@code SIGUSR1};</li>
 * <li>{@value #ANSWER}: {@code {"requestId":…,"step":N,"dir":"step-…"}}, written by the trainer the same way after
 * its step directory {@code dir} was renamed into place; then the trainer exits 0.</li>
 * </ul>
 */
public final class StopContract {
    /** Written by Stowage: a checkpoint is wanted now. */
    public static final String REQUEST = ".stowage-stop-request.json";
    /** Written by the trainer: the step it saved for the request. */
    public static final String ANSWER = ".stowage-stop-answer.json";

    /**
     * The trainer's answer.
     *
     * @param step the step it saved
     * @param dir  the step directory's name in the run directory
     */
    public record Answer(long step, String dir) {
    }

    private StopContract() {
    }

    /**
     * Writes the request atomically, replacing an older one.
     *
     * @throws CliException (exit 1) when it cannot be written
     */
    public static void request(Path runDir, String requestId, String reason, Instant now, Instant deadline) {
        ObjectNode node = EventCodec.mapper().createObjectNode().put("requestId", requestId).put("reason", reason)
                .put("requestedAt", now.toString()).put("deadline", deadline.toString());
        Path file = runDir.resolve(REQUEST);
        Path tmp = runDir.resolve(REQUEST + ".tmp");
        try {
            Files.write(tmp, EventCodec.mapper().writeValueAsBytes(node));
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot write the stop request " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * @return the trainer's answer to {@code requestId}; empty while there is none, or the file answers another
     *         request, or is not (yet) a well-formed answer
     */
    public static Optional<Answer> answer(Path runDir, String requestId) {
        Path file = runDir.resolve(ANSWER);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            JsonNode node = EventCodec.mapper().readTree(file.toFile());
            boolean ours = node != null && requestId.equals(node.path("requestId").asText())
                    && node.path("step").isIntegralNumber() && node.path("dir").isTextual();
            String dir = ours ? node.path("dir").asText() : null;
            boolean plain = dir != null && !dir.isEmpty() && !dir.contains("/") && !dir.startsWith(".");
            return plain ? Optional.of(new Answer(node.path("step").asLong(), dir)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
