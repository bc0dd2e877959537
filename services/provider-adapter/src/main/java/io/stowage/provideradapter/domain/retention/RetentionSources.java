package io.stowage.provideradapter.domain.retention;

import io.stowage.events.ledger.RunCheckpoints;

import java.io.IOException;
import java.util.Map;

/**
 * What retention reads and the one thing it may do: the run's steps from the ledger, the step latest.json names from
 * the primary store, and deleting / HEAD-checking objects under {@code checkpoints/} in the primary and replica store.
 * Implemented on the ledger's HTTP API and the S3 stores ({@code io.stowage.provideradapter.storage}).
 */
public interface RetentionSources {
    /**
     * @return every step of the run the ledger knows ({@code GET /api/checkpoints/steps}), ascending
     * @throws IOException when the ledger cannot answer (retention then decides and deletes nothing)
     */
    RunCheckpoints steps(String experiment, String run) throws IOException;

    /**
     * @return every run whose newest published step carried a retention policy from the run's capsule
     *         ({@code GET /api/checkpoints/policies}), by experiment then run
     * @throws IOException when the ledger cannot answer (the sweep then takes only the operators' schedules)
     */
    java.util.List<io.stowage.events.ledger.RunRetentionPolicy> capsulePolicies() throws IOException;

    /**
     * @return the step {@code checkpoints/<experiment>/<run>/latest.json} names in the primary store; null when absent
     * @throws IOException when the pointer cannot be read or is not this run's (retention does not guess)
     */
    Long latestStep(String experiment, String run) throws IOException;

    /** @return store name ("primary", "replica") to the bucket deletions go to */
    Map<String, String> buckets();

    /**
     * Deletes one object.
     *
     * @throws IllegalArgumentException for a key outside {@code checkpoints/} or an unknown store (never sent)
     * @throws IOException              when the store refuses or cannot be reached
     */
    void delete(String store, String key) throws IOException;

    /**
     * @return true when a HEAD finds the object, false when the store answers not found
     * @throws IOException when the store cannot answer
     */
    boolean exists(String store, String key) throws IOException;
}
