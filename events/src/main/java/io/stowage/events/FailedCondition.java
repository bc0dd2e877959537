package io.stowage.events;

/**
 * One gate condition that did not hold.
 *
 * @param condition 1 to 5, numbered as in docs/design/README.md, "The gate: five conditions"; 0 when no evidence could be read at all
 *                  (codes "ledger-unavailable", "ledger-behind"): the gate fails closed
 * @param code      a stable machine-readable code, e.g. "unaccounted-file", "no-full-read", "protected-root", "ledger-unavailable"
 * @param detail    one human line naming the file, object or asset (bounded: never a whole listing)
 */
public record FailedCondition(int condition, String code, String detail) {
}
