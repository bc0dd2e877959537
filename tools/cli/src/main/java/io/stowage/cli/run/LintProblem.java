package io.stowage.cli.run;

/**
 * One thing a lint found wrong: which field (a capsule field such as {@code caps.wallTime}, or a mount target such
 * as {@code /datasets}), what is wrong with it, and what was expected instead.
 *
 * @param field    the field or mount the problem is about, dotted for nested capsule fields
 * @param problem  what is wrong, e.g. {@code missing} or {@code "6 hours" is not a duration}
 * @param expected what the rule asks for, e.g. {@code a duration such as 6h, 90m or 2d}
 */
public record LintProblem(String field, String problem, String expected) {

    /** @return the problem as one line: {@code field: problem; expected expected} */
    public String line() {
        return field + ": " + problem + "; expected " + expected;
    }
}
