package io.stowage.console.domain;

/**
 * A failed condition of a denial as the ledger lists it: number, code and detail (the files or objects it names).
 *
 * @param condition 1 to 5 (0 when the request was refused before any condition, e.g. a stale request)
 * @param code      e.g. {@code unaccounted-files}
 * @param detail    one line, e.g. {@code train.log is not part of any archived asset}
 */
public record Failure(int condition, String code, String detail) {
    /** @return what the condition requires, in words */
    public String words() {
        return ConditionWords.of(condition);
    }
}
