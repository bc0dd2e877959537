package io.stowage.console.domain;

import java.util.List;

/** The five gate conditions in words, as the pages show them beside their codes (docs/design/gate.md). Pure logic. */
public final class ConditionWords {
    private static final List<String> WORDS = List.of(
            "every object of the directory's assets is in the store with the bytes and SHA-256 it was uploaded with",
            "every object was read back in full and its SHA-256 recomputed",
            "the assets' provenance is complete (licence and source, or code commit, config and data manifest)",
            "a key checkpoint has its second copy in the replica store, verified",
            "every file in the directory is accounted for by an archived, verified object");

    private ConditionWords() {
    }

    /** @param condition 1 to 5; @return what the condition requires, or {@code condition N} for another number */
    public static String of(int condition) {
        return condition >= 1 && condition <= WORDS.size() ? WORDS.get(condition - 1) : "condition " + condition;
    }
}
