package io.stowage.cli.retention;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.retention.domain.RetentionPolicy;
import io.stowage.events.EventCodec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a run's retention policy from its experiment capsule: the object under key {@code retention} of
 * {@code experiment.json}, e.g. {@code {"keepLast":3,"keepBest":1,"metric":"val_loss","mode":"min","keepEvery":1000,
 * "keepInterval":"PT6H","temporaryTtl":"P7D","tagsPin":true}} (every field optional; {@code keepInterval} and
 * {@code temporaryTtl} ISO-8601 durations). Produces a
 * {@link RetentionPolicy}; no capsule or no key gives {@link RetentionPolicy#NONE}.
 */
public final class CapsuleRetention {
    /** The capsule's file name in the run directory (the directory that holds the step directories). */
    public static final String CAPSULE_FILE = "experiment.json";
    private static final Set<String> FIELDS = Set.of("keepLast", "keepBest", "metric", "mode", "keepEvery",
            "keepInterval", "temporaryTtl", "tagsPin", "coldAfter", "coldStorageClass");

    private CapsuleRetention() {
    }

    /**
     * @param capsule the capsule file, or the run directory that holds {@value #CAPSULE_FILE}
     * @return the policy it states; {@link RetentionPolicy#NONE} when the file is absent or has no {@code retention}
     * @throws CliException (exit 2) for unparsable JSON, an unknown field (a typo must not silently keep or expire),
     *                      a value of the wrong type or a policy {@link RetentionPolicy} refuses
     */
    public static RetentionPolicy read(Path capsule) {
        Path file = Files.isDirectory(capsule) ? capsule.resolve(CAPSULE_FILE) : capsule;
        if (!Files.isRegularFile(file)) {
            return RetentionPolicy.NONE;
        }
        JsonNode root;
        try {
            root = EventCodec.mapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new CliException(CliException.USAGE, "cannot parse " + file + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
        JsonNode node = root == null ? null : root.get("retention");
        if (node == null || node.isNull()) {
            return RetentionPolicy.NONE;
        }
        if (!node.isObject()) {
            throw new CliException(CliException.USAGE, file + ": retention is not an object");
        }
        node.fieldNames().forEachRemaining(name -> {
            if (!FIELDS.contains(name)) {
                throw new CliException(CliException.USAGE, file + ": unknown retention field '" + name + "' (known: "
                        + String.join(", ", new java.util.TreeSet<>(FIELDS)) + ")");
            }
        });
        try {
            return new RetentionPolicy(count(file, node, "keepLast"), count(file, node, "keepBest"),
                    text(file, node, "metric"), mode(text(file, node, "mode")), count(file, node, "keepEvery"),
                    RetentionPolicy.isoDuration("keepInterval", text(file, node, "keepInterval")),
                    RetentionPolicy.isoDuration("temporaryTtl", text(file, node, "temporaryTtl")), bool(file, node, "tagsPin"),
                    RetentionPolicy.isoDuration("coldAfter", text(file, node, "coldAfter")), text(file, node, "coldStorageClass"));
        } catch (IllegalArgumentException e) {
            throw new CliException(CliException.USAGE, file + ": retention: " + e.getMessage(), e);
        }
    }

    /** @return MIN or MAX for "min" or "max" in any case; null for null */
    public static RetentionPolicy.Mode mode(String text) {
        if (text == null) {
            return null;
        }
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "min" -> RetentionPolicy.Mode.MIN;
            case "max" -> RetentionPolicy.Mode.MAX;
            default -> throw new IllegalArgumentException("mode must be min or max, not '" + text + "'");
        };
    }

    private static Integer count(Path file, JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber()) {
            throw new CliException(CliException.USAGE, file + ": retention." + field + " is not a whole number");
        }
        return v.intValue();
    }

    private static String text(Path file, JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new CliException(CliException.USAGE, file + ": retention." + field + " is not a string");
        }
        return v.asText();
    }

    private static Boolean bool(Path file, JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isBoolean()) {
            throw new CliException(CliException.USAGE, file + ": retention." + field + " is not true or false");
        }
        return v.asBoolean();
    }
}
