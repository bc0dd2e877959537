package io.stowage.events;

import java.util.List;

/**
 * The gate's verdict on one of its five conditions, carried in every {@link GatePassed} and
 * {@link GateDenied} (five entries, conditions 1 to 5 in order).
 *
 * @param condition 1 to 5, numbered as in docs/design/README.md, "The gate: five conditions"
 * @param name      short stable name: "objects-match", "full-read", "provenance", "second-copy", "directory"
 * @param passed    true when the condition held
 * @param reason    one human line: what was checked (passed) or what failed (denied), bounded in length
 * @param evidence  ids of the ledger events that prove the verdict (object.uploaded, object.verified,
 *                  dataset.sealed, checkpoint.published), sorted, without duplicates; empty when none
 *                  could be read (e.g. the ledger was unreachable)
 */
public record ConditionResult(int condition, String name, boolean passed, String reason, List<String> evidence) {

    /** Names of conditions 1 to 5, index = condition - 1. */
    public static final List<String> NAMES = List.of("objects-match", "full-read", "provenance", "second-copy",
            "directory");

    public ConditionResult {
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
    }

    /** @return five failed results with the same reason and no evidence: nothing could be evaluated */
    public static List<ConditionResult> noneEvaluated(String reason) {
        return java.util.stream.IntStream.rangeClosed(1, 5)
                .mapToObj(c -> new ConditionResult(c, NAMES.get(c - 1), false, "not evaluated: " + reason, List.of()))
                .toList();
    }
}
