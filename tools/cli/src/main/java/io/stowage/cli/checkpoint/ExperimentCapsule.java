package io.stowage.cli.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;
import io.stowage.events.Provenance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a checkpoint's provenance: the run's experiment capsule ({@value #CAPSULE_FILE} in the run
 * directory, beside the step directories) and the step's own {@value #STEP_FILE}, which fills any field
 * the capsule lacks. Produces one {@link Provenance}; an absent file contributes nothing.
 *
 * <p>Capsule fields (all optional): {@code experimentId}, {@code codeCommit}, {@code codeClean} (boolean),
 * {@code configSha256}, {@code dataManifestSha256}, {@code seed} (integer), {@code runtimeProfile},
 * {@code imageDigest}, {@code entrypoint}, {@code args} (array of strings), {@code hardware}, and
 * {@code finalStep} (the run's last step, which is a key checkpoint, see {@link KeyCheckpoints}), and
 * {@code retention} (the run's retention policy, read by {@link io.stowage.cli.retention.CapsuleRetention}). The
 * fields a run must record before it starts (question, protocol, caps, checkpoint interval, resume command, outputs,
 * ...) are checked by {@code stowage capsule lint} ({@code io.stowage.cli.run.CapsuleLint}), never here: a capsule
 * lacking them still publishes.
 */
final class ExperimentCapsule {
    /** The run's capsule, in the directory that holds the step directories. */
    static final String CAPSULE_FILE = "experiment.json";
    /** Per-step provenance, inside the step directory (a checkpoint file like any other). */
    static final String STEP_FILE = "provenance.json";

    private ExperimentCapsule() {
    }

    /**
     * @param stepDir the step directory (absolute, normalized)
     * @throws CliException (exit 2) when a file exists but is not a JSON object
     */
    static Provenance read(Path stepDir) {
        JsonNode capsule = parse(stepDir.getParent() == null ? null : stepDir.getParent().resolve(CAPSULE_FILE));
        JsonNode step = parse(stepDir.resolve(STEP_FILE));
        return new Provenance(text(capsule, step, "codeCommit"), text(capsule, step, "configSha256"),
                text(capsule, step, "dataManifestSha256"), text(capsule, step, "experimentId"),
                node(capsule, step, "codeClean") == null ? null : node(capsule, step, "codeClean").asBoolean(),
                node(capsule, step, "seed") == null ? null : node(capsule, step, "seed").asLong(),
                text(capsule, step, "runtimeProfile"), text(capsule, step, "imageDigest"),
                text(capsule, step, "entrypoint"), args(node(capsule, step, "args")), text(capsule, step, "hardware"));
    }

    /**
     * @return the capsule's {@code finalStep} (the run's planned last step), or null when there is no capsule
     *         or it does not say
     */
    static Long finalStep(Path stepDir) {
        JsonNode capsule = parse(stepDir.getParent() == null ? null : stepDir.getParent().resolve(CAPSULE_FILE));
        return capsule != null && capsule.hasNonNull("finalStep") ? capsule.get("finalStep").asLong() : null;
    }

    /**
     * @param runDir the run directory (holding {@value #CAPSULE_FILE})
     * @return the capsule's {@code checkpointInterval} when it is a number of steps, or null (no capsule, unreadable,
     *         or a duration)
     */
    static Long checkpointInterval(Path runDir) {
        try {
            JsonNode capsule = parse(runDir.resolve(CAPSULE_FILE));
            JsonNode interval = capsule == null ? null : capsule.get("checkpointInterval");
            return interval != null && interval.isIntegralNumber() && interval.asLong() > 0 ? interval.asLong() : null;
        } catch (CliException unreadable) {
            return null; // being rewritten by the trainer; the status line just says less
        }
    }

    private static JsonNode parse(Path file) {
        if (file == null || !Files.isRegularFile(file)) {
            return null;
        }
        try {
            JsonNode node = EventCodec.mapper().readTree(file.toFile());
            if (node == null || !node.isObject()) {
                throw new CliException(CliException.USAGE, file + " is not a JSON object");
            }
            return node;
        } catch (IOException e) {
            throw new CliException(CliException.USAGE, "cannot parse " + file + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
    }

    private static JsonNode node(JsonNode capsule, JsonNode step, String field) {
        for (JsonNode source : new JsonNode[]{capsule, step}) {
            if (source != null && source.hasNonNull(field)) {
                return source.get(field);
            }
        }
        return null;
    }

    private static String text(JsonNode capsule, JsonNode step, String field) {
        JsonNode value = node(capsule, step, field);
        return value == null ? null : value.isValueNode() ? value.asText() : value.toString();
    }

    private static List<String> args(JsonNode value) {
        if (value == null || !value.isArray()) {
            return null;
        }
        List<String> args = new ArrayList<>();
        value.forEach(a -> args.add(a.asText()));
        return List.copyOf(args);
    }
}
