package io.stowage.gatekeeper.domain;

import io.stowage.events.FailedCondition;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Collects what failed during one gate evaluation and produces one {@link FailedCondition} per
 * failed check, whose detail is one bounded line: at most {@value #MAX_NAMED} names, then
 * "and N more".
 */
public final class Findings {
    /** Names listed in one detail line before "and N more". */
    public static final int MAX_NAMED = 10;

    private final Map<GateCheck, Set<String>> failures = new EnumMap<>(GateCheck.class);

    /** Records that {@code check} failed for {@code subject} (a file, object key or asset id). */
    public void fail(GateCheck check, String subject) {
        failures.computeIfAbsent(check, c -> new LinkedHashSet<>()).add(oneLine(subject));
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

    /** @return {@code "<label>: a, b, c and N more"} naming at most {@value #MAX_NAMED} subjects */
    static String detail(GateCheck check, Set<String> subjects) {
        List<String> named = subjects.stream().limit(MAX_NAMED).toList();
        String line = check.label() + ": " + String.join(", ", named);
        int more = subjects.size() - named.size();
        return more > 0 ? line + " and " + more + " more" : line;
    }

    private static String oneLine(String subject) {
        String flat = String.valueOf(subject).replaceAll("[\\r\\n\\t]", " ");
        return flat.length() > 300 ? flat.substring(0, 300) + "..." : flat;
    }
}
