package io.stowage.gatekeeper.ledgerclient;

import io.stowage.events.FailedCondition;
import io.stowage.events.ledger.ReleaseEvidence;

/**
 * What the ledger said about one release request: its evidence, or why none could be read
 * (a condition-0 failure, "ledger-unavailable" or "ledger-behind").
 */
public record LedgerAnswer(ReleaseEvidence evidence, FailedCondition failure) {

    static LedgerAnswer of(ReleaseEvidence evidence) {
        return new LedgerAnswer(evidence, null);
    }

    static LedgerAnswer failed(FailedCondition failure) {
        return new LedgerAnswer(null, failure);
    }
}
