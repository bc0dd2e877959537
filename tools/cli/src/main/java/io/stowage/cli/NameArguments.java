package io.stowage.cli;

import io.stowage.events.InvalidEventException;
import io.stowage.events.Validation;

/**
 * Checks user-supplied names (experiment, run, tag, dataset name, revision) by the key-segment rule of
 * {@link Validation#segmentProblem(String)} before a command reads its session, talks to a service or sends
 * any byte: {@code a+b}, {@code a b}, {@code x//y}, {@code /lead}, {@code naïve café} and {@code 100%} are
 * refused with one line and exit code 2.
 */
public final class NameArguments {
    private NameArguments() {
    }

    /**
     * @param option the option as the user typed it, e.g. {@code --experiment}
     * @throws CliException exit 2, message e.g. {@code --experiment 'a+b' is not a valid name: use only ... ('+' (U+002B) is not allowed)}
     */
    public static void require(String option, String value) {
        try {
            Validation.requireSegment(option, value);
        } catch (InvalidEventException e) {
            throw new CliException(CliException.USAGE, e.getMessage());
        }
    }
}
