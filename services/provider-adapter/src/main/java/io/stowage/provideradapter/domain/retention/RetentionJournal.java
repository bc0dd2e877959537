package io.stowage.provideradapter.domain.retention;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The durable record of every retention decision that deletes something ({@link RetentionEntry}, one per decision
 * event id), so that a provider-adapter killed between deleting and sending {@code checkpoint.expired} finishes the
 * step at start (after checking it again), an outcome whose send failed is sent again with the same event ids, and
 * a decision is executed at most once across replays and restarts.
 */
public interface RetentionJournal {

    /** @return the entry of {@code decisionId}, empty when that decision never deleted here */
    Optional<RetentionEntry> entry(String decisionId);

    /**
     * Replaces the entry of its decision, durably (on disk, fsynced, before returning).
     *
     * @throws IOException when it cannot be made durable; the caller must then not go on to the next deletion
     */
    void save(RetentionEntry entry) throws IOException;

    /** @return every readable entry, oldest update first */
    List<RetentionEntry> entries();

    /**
     * @return the files that could not be read (torn or altered), each with why: they are never executed, so nothing
     *         they name is deleted, and they stay on disk for an operator to look at
     */
    List<String> unreadable();
}
