package io.stowage.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Consumes measurements and goals; produces a Markdown table with one row per tool and input: median seconds,
 * each run's seconds, MiB/s, speed ratio against rclone on the same input, median client CPU seconds, the goals
 * the row is held to and whether they were met.
 */
public final class ReportTable {
    private final String rcloneName;

    /** @param rcloneName the {@link Contender#name()} of the rclone reference, the ratio column's denominator */
    public ReportTable(String rcloneName) {
        this.rcloneName = rcloneName;
    }

    /** @return the table, header and separator included, lines ending in {@code \n} */
    public String render(List<Measurement> measurements, List<Goal> goals) {
        StringBuilder out = new StringBuilder();
        out.append("| tool | input | seconds (median) | runs (s) | MiB/s | ratio vs rclone | client CPU s (median) "
                + "| goal | met? |\n");
        out.append("|---|---|---:|---|---:|---:|---:|---|---|\n");
        for (Measurement m : measurements) {
            List<Goal.Verdict> verdicts = goals.stream()
                    .filter(g -> g.tool().equals(m.tool()) && g.inputLabel().equals(m.input().label()))
                    .map(g -> g.evaluate(measurements)).flatMap(Optional::stream).toList();
            out.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %s | %.0f | %s | %.2f | %s | %s |%n",
                    cell(m.tool()), m.input().label(), m.medianSeconds(), runs(m), m.mibPerSecond(),
                    ratioVsRclone(m, measurements), m.medianCpuSeconds(), cell(goalText(verdicts)), metText(verdicts)));
        }
        return out.toString();
    }

    private String ratioVsRclone(Measurement m, List<Measurement> all) {
        return all.stream()
                .filter(r -> r.tool().equals(rcloneName) && r.input().label().equals(m.input().label()))
                .findFirst()
                .map(r -> String.format(Locale.ROOT, "%.2f×", r.medianSeconds() / m.medianSeconds()))
                .orElse("–");
    }

    /** A tool name such as {@code aws … | openssl …} must not end the Markdown cell. */
    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

    private static String runs(Measurement m) {
        return m.seconds().stream().map(s -> String.format(Locale.ROOT, "%.2f", s)).collect(Collectors.joining(", "));
    }

    private static String goalText(List<Goal.Verdict> verdicts) {
        return verdicts.isEmpty() ? "–"
                : verdicts.stream().map(v -> v.goal().describe()).collect(Collectors.joining("; "));
    }

    private static String metText(List<Goal.Verdict> verdicts) {
        if (verdicts.isEmpty()) {
            return "–";
        }
        List<String> parts = new ArrayList<>();
        for (Goal.Verdict v : verdicts) {
            parts.add(String.format(Locale.ROOT, "%s (%.2f×)", v.met() ? "yes" : "**no**", v.ratio()));
        }
        return String.join("; ", parts);
    }
}
