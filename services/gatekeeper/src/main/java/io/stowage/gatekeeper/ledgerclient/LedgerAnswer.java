package io.stowage.gatekeeper.ledgerclient;

import io.stowage.events.FailedCondition;
import io.stowage.events.ledger.ReleaseEvidence;

/**
 * What the ledger said about one release request: its evidence, or why none could be read (a condition-0 failure,
 * "ledger-unavailable" or "ledger-behind"), or that it already holds the decision on this request.
 *
 * @param decided the event id of the decision the ledger already holds for this request, else null
 */
public record LedgerAnswer(ReleaseEvidence evidence, FailedCondition failure, String decided) {

    static LedgerAnswer of(ReleaseEvidence evidence) {
        return new LedgerAnswer(evidence, null, null);
    }

    static LedgerAnswer failed(FailedCondition failure) {
        return new LedgerAnswer(null, failure, null);
    }

    static LedgerAnswer alreadyDecided(String decisionId) {
        return new LedgerAnswer(null, null, decisionId);
    }
}
