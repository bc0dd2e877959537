package io.stowage.cli.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;
import io.stowage.events.Validation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A step's training metrics: the step directory's {@value #FILE} (a JSON object of name → number) merged with the
 * command line's {@code --metric NAME=VALUE} options, which win on the same name. Produces a name-sorted map of finite
 * numbers for {@code checkpoint.published}.
 */
public final class StepMetrics {
    /** The optional file in a step directory that holds its metrics (a checkpoint file like any other). */
    public static final String FILE = "metrics.json";

    private StepMetrics() {
    }

    /**
     * @param stepDir the step directory (absolute)
     * @param options {@code NAME=VALUE} strings from the command line
     * @return name → value, sorted by name; empty when neither source names one
     * @throws CliException (exit 2) for a malformed option, a file that is not an object of numbers, a name outside
     *                      ASCII letters, digits, '.', '_', '-', or a value that is not a finite number
     */
    public static Map<String, Double> of(Path stepDir, List<String> options) {
        Map<String, Double> metrics = new TreeMap<>(fromFile(stepDir.resolve(FILE)));
        for (String option : options) {
            int eq = option.indexOf('=');
            if (eq <= 0) {
                throw new CliException(CliException.USAGE, "--metric takes NAME=VALUE, not '" + option + "'");
            }
            metrics.put(name(option.substring(0, eq)), number(option.substring(0, eq), option.substring(eq + 1)));
        }
        return metrics;
    }

    private static Map<String, Double> fromFile(Path file) {
        Map<String, Double> metrics = new TreeMap<>();
        if (!Files.isRegularFile(file)) {
            return metrics;
        }
        JsonNode root;
        try {
            root = EventCodec.mapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new CliException(CliException.USAGE, "cannot parse " + file + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
        if (root == null || !root.isObject()) {
            throw new CliException(CliException.USAGE, file + " is not a JSON object of metric name to number");
        }
        root.fields().forEachRemaining(field -> {
            if (!field.getValue().isNumber()) {
                throw new CliException(CliException.USAGE, file + ": metric " + field.getKey() + " is not a number");
            }
            metrics.put(name(field.getKey()), finite(field.getKey(), field.getValue().asDouble()));
        });
        return metrics;
    }

    private static String name(String name) {
        if (!Validation.isSegment(name)) {
            throw new CliException(CliException.USAGE, "metric name '" + name + "': " + Validation.segmentProblem(name));
        }
        return name;
    }

    private static double number(String name, String text) {
        try {
            return finite(name, Double.parseDouble(text.strip()));
        } catch (NumberFormatException e) {
            throw new CliException(CliException.USAGE, "metric " + name + ": '" + text + "' is not a number");
        }
    }

    private static double finite(String name, double value) {
        if (!Double.isFinite(value)) {
            throw new CliException(CliException.USAGE, "metric " + name + " is not a finite number");
        }
        return value;
    }
}
