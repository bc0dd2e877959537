package io.stowage.provideradapter.domain.retention;

/**
 * Told by the {@link RetentionExecutor} of every retention outcome decided now (a fresh decision, an interrupted one
 * finished, a refusal), never of an outcome answered again for a decision already done.
 */
@FunctionalInterface
public interface RetentionMeter {
    /** Counts nothing. */
    RetentionMeter NONE = outcome -> { };

    /** @param outcome the steps expired (deleted, HEAD-confirmed) and the refusals of one decision */
    void decided(RetentionExecutor.Outcome outcome);
}
