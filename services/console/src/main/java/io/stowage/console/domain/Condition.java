package io.stowage.console.domain;

import java.util.List;

/**
 * One of the five gate conditions as a decision recorded it.
 *
 * @param number   1 to 5
 * @param name     its code, e.g. {@code directory}
 * @param passed   whether it held
 * @param reason   the gate's one line on it (for a denial: what fails, naming files or objects)
 * @param evidence ids of the ledger events that prove it
 */
public record Condition(int number, String name, boolean passed, String reason, List<String> evidence) {
    public Condition {
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
    }

    /** @return the evidence ids with the console's address of each event */
    public List<EvidenceLink> evidenceLinks() {
        return evidence.stream().map(EvidenceLink::of).toList();
    }

    /** @return what the condition requires, in words */
    public String words() {
        return ConditionWords.of(number);
    }
}
