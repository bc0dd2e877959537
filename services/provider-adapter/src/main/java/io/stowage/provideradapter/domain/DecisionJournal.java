package io.stowage.provideradapter.domain;

import java.io.IOException;

/**
 * The gate decisions (gate.passed event ids) the provider-adapter has already acted on, so that it
 * acts at most once per decision even when Kafka redelivers it. Durable: an id recorded before a
 * crash is still known after a restart.
 */
public interface DecisionJournal {

    /** @return true when {@code decisionId} was recorded before */
    boolean executed(String decisionId);

    /**
     * Records {@code decisionId} durably (on disk before returning); call it before acting.
     *
     * @throws IOException when it cannot be made durable; the caller must then not act
     */
    void record(String decisionId) throws IOException;
}
