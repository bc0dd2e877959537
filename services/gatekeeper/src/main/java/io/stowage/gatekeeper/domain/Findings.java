package io.stowage.gatekeeper.domain;

import io.stowage.events.ConditionResult;
import io.stowage.events.FailedCondition;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Collects what one gate evaluation found: every failed check (one {@link FailedCondition} per
 * check, whose detail is one bounded line: at most {@value #MAX_NAMED} names, then "and N more"),
 * the ledger event ids read as evidence for each condition, and a one-line note of what each
 * condition checked; then turns them into the five {@link ConditionResult}s of the decision.
 */
public final class Findings {
    /** Names listed in one detail line before "and N more". */
    public static final int MAX_NAMED = 10;

    private final Map<GateCheck, Set<String>> failures = new EnumMap<>(GateCheck.class);
    private final Map<Integer, Set<String>> evidence = new TreeMap<>();
    private final Map<Integer, Set<String>> notes = new TreeMap<>();

    /** Records that {@code check} failed for {@code subject} (a file, object key or asset id). */
    public void fail(GateCheck check, String subject) {
        failures.computeIfAbsent(check, c -> new LinkedHashSet<>()).add(oneLine(subject));
    }

    /** Records that the ledger event {@code eventId} was read as evidence for {@code condition} (null is ignored). */
    public void prove(int condition, String eventId) {
        if (eventId != null && !eventId.isBlank()) {
            evidence.computeIfAbsent(condition, c -> new TreeSet<>()).add(eventId);
        }
    }

    /** Records what {@code condition} checked, e.g. "3 primary objects match"; shown when it passed. */
    public void note(int condition, String what) {
        notes.computeIfAbsent(condition, c -> new LinkedHashSet<>()).add(oneLine(what));
    }

    /** @return true when nothing failed */
    public boolean isEmpty() {
        return failures.isEmpty();
    }

    /** @return true when {@code check} failed at least once */
    public boolean failed(GateCheck check) {
        return failures.containsKey(check);
    }

    /** @return one failed condition per failed check, ordered by condition number then check */
    public List<FailedCondition> toFailedConditions() {
        List<FailedCondition> result = new ArrayList<>();
        failures.forEach((check, subjects) ->
                result.add(new FailedCondition(check.condition(), check.code(), detail(check, subjects))));
        result.sort((a, b) -> Integer.compare(a.condition(), b.condition()));
        return result;
    }

    /**
     * @param anyAsset false when the ledger knew no asset touching the directory: conditions 1 to 4 then
     *                 fail for want of evidence (nothing vouches for the files)
     * @return the five condition results, 1 to 5: failed when a check of it failed, with the failed
     *         checks' details as the reason, else passed with the notes; each with its sorted evidence ids
     */
    public List<ConditionResult> toConditionResults(boolean anyAsset) {
        List<ConditionResult> results = new ArrayList<>();
        for (int c = 1; c <= 5; c++) {
            int condition = c;
            List<String> failedDetails = toFailedConditions().stream().filter(f -> f.condition() == condition)
                    .map(f -> f.code() + ": " + f.detail()).toList();
            List<String> ids = List.copyOf(evidence.getOrDefault(c, Set.of()));
            String name = ConditionResult.NAMES.get(c - 1);
            if (!failedDetails.isEmpty()) {
                results.add(new ConditionResult(c, name, false, bounded(String.join("; ", failedDetails)), ids));
            } else if (!anyAsset && c < 5) {
                results.add(new ConditionResult(c, name, false, "no evidence: the ledger knows no asset touching the "
                        + "directory", ids));
            } else {
                results.add(new ConditionResult(c, name, true,
                        bounded(String.join("; ", notes.getOrDefault(c, Set.of("held")))), ids));
            }
        }
        return results;
    }

    /** @return {@code "<label>: a, b, c and N more"} naming at most {@value #MAX_NAMED} subjects */
    static String detail(GateCheck check, Set<String> subjects) {
        List<String> named = subjects.stream().limit(MAX_NAMED).toList();
        String line = check.label() + ": " + String.join(", ", named);
        int more = subjects.size() - named.size();
        return more > 0 ? line + " and " + more + " more" : line;
    }

    private static String bounded(String text) {
        return text.length() > 2000 ? text.substring(0, 2000) + "..." : text;
    }

    /**
     * The longest subject kept whole, in characters: a content-addressed key (about 120 characters) with the store, the
     * bytes and both SHA-256 digests of a changed object fits, so the digest a user compares is never cut off.
     */
    static final int MAX_SUBJECT = 600;

    private static String oneLine(String subject) {
        String flat = String.valueOf(subject).replaceAll("[\\r\\n\\t]", " ");
        return flat.length() > MAX_SUBJECT ? flat.substring(0, MAX_SUBJECT) + "..." : flat;
    }
}
