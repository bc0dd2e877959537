package io.stowage.cli.output;

import io.stowage.cli.CliException;
import io.stowage.events.ConditionResult;
import io.stowage.events.FailedCondition;
import io.stowage.events.InventoryEntry;
import io.stowage.events.ledger.ReleaseOutcome;
import io.stowage.events.ledger.ReleasePlan;

import java.util.List;

/**
 * What {@code stowage release} prints for one outcome from the ledger: with {@code --json} the plan
 * ({@link Json}: each asset, each condition with pass/fail, reason and evidence event ids, the files
 * and bytes that would be freed), otherwise a human table; and the exit code (3 when denied).
 */
public final class ReleaseReport {
    /** Files listed in the human table before "... and N more". */
    static final int MAX_FILES = 50;
    /** Evidence ids listed per condition in the human table before "and N more". */
    static final int MAX_EVIDENCE = 4;

    private ReleaseReport() {
    }

    /**
     * The plan as one JSON object.
     *
     * @param gate            "passed" or "denied" ("pending" never reaches here)
     * @param decisionEventId the gate.passed / gate.denied event id
     * @param conditions      conditions 1 to 5 with pass/fail, reason and evidence event ids
     * @param files           what would be freed (relative path, bytes, SHA-256); empty when denied
     * @param fileCount       number of regular files that would be freed
     * @param totalBytes      their bytes
     * @param failed          every failed check when denied
     * @param released        true once the provider-adapter deleted the directory (never for a dry run)
     * @param failureReason   why an approved release was not performed, else null
     */
    public record Json(String requestId, String path, boolean dryRun, String gate, String decisionEventId,
                List<String> assets, List<ConditionResult> conditions, int fileCount, long totalBytes,
                String inventoryDigest, List<InventoryEntry> files, List<FailedCondition> failed, boolean released,
                String failureReason) {
    }

    /** @return the plan of {@code outcome} (an empty plan when the ledger holds none) */
    public static Json json(ReleaseOutcome outcome) {
        ReleasePlan plan = planOf(outcome);
        return new Json(outcome.requestId(), outcome.path(), outcome.dryRun(), outcome.gate(), plan.decisionEventId(),
                plan.assets(), plan.conditions(), plan.fileCount(), plan.totalBytes(), plan.inventoryDigest(),
                plan.inventory(), outcome.failed(), outcome.released(), outcome.failureReason());
    }

    /** @return {@link CliException#DENIED} when the gate denied, 0 for a dry run or a release, else {@link CliException#FAILED} */
    public static int exitCode(ReleaseOutcome outcome) {
        if ("denied".equals(outcome.gate())) {
            return CliException.DENIED;
        }
        return outcome.dryRun() || outcome.released() ? 0 : CliException.FAILED;
    }

    /** @return the human table: verdict, assets, one row per condition with its evidence, the files that would be freed */
    public static String table(ReleaseOutcome outcome) {
        ReleasePlan plan = planOf(outcome);
        StringBuilder out = new StringBuilder();
        out.append("release ").append(outcome.path()).append(": gate ").append(outcome.gate())
                .append(outcome.dryRun() ? " (dry run: nothing deleted)" : "").append('\n');
        if (!outcome.dryRun() && "passed".equals(outcome.gate())) {
            out.append(outcome.released() ? "released: the directory is gone\n"
                    : "the release was refused: " + outcome.failureReason() + "\n");
        }
        out.append("assets: ").append(plan.assets().isEmpty() ? "-" : String.join(", ", plan.assets())).append('\n');
        out.append(String.format("%-4s %-14s %-6s %-9s %s%n", "cond", "name", "result", "evidence", "reason"));
        for (ConditionResult c : plan.conditions()) {
            out.append(String.format("%-4d %-14s %-6s %-9d %s%n", c.condition(), c.name(), c.passed() ? "pass" : "FAIL",
                    c.evidence().size(), c.reason()));
            if (!c.evidence().isEmpty()) {
                out.append("     evidence: ").append(limited(c.evidence(), MAX_EVIDENCE)).append('\n');
            }
        }
        if (plan.conditions().isEmpty()) {
            outcome.failed().forEach(f -> out.append(String.format("  condition %d (%s): %s%n", f.condition(), f.code(),
                    f.detail())));
        }
        out.append(freeLine(outcome, plan)).append('\n');
        plan.inventory().stream().limit(MAX_FILES).forEach(f -> out.append(String.format("  %12d  %s  %s%n", f.bytes(),
                f.sha256().substring(0, 12), f.path())));
        if (plan.inventory().size() > MAX_FILES) {
            out.append("  ... and ").append(plan.inventory().size() - MAX_FILES).append(" more (see --json)\n");
        } else if (plan.inventory().isEmpty() && plan.fileCount() > 0) {
            out.append("  (a list this long travels in gate.inventory parts; the ledger keeps them: GET /api/payloads?assetId=release/")
                    .append(outcome.requestId()).append("&topic=gate.inventory)\n");
        }
        return out.toString();
    }

    /**
     * The line on what the release frees: "freed: N file(s), B bytes" once released, "would free: ..." for a
     * passed dry run, "approved ... nothing deleted" for a passed release the provider-adapter refused, and
     * "nothing deleted"/"would free: nothing" when denied (a denied plan has no inventory: the count is not 0 bytes
     * of data, it is no decision to delete).
     */
    private static String freeLine(ReleaseOutcome outcome, ReleasePlan plan) {
        String amount = plan.fileCount() + " file(s), " + plan.totalBytes() + " bytes"
                + (plan.inventoryDigest() == null ? "" : " (inventory " + plan.inventoryDigest() + ")");
        if ("denied".equals(outcome.gate())) {
            return outcome.dryRun() ? "would free: nothing (denied; a release now would be denied too)"
                    : "nothing deleted: denied, every file left as it was";
        }
        if (outcome.dryRun()) {
            return "would free: " + amount;
        }
        return outcome.released() ? "freed: " + amount : "nothing deleted: approved " + amount + " but not released";
    }

    private static ReleasePlan planOf(ReleaseOutcome outcome) {
        return outcome.plan() != null ? outcome.plan()
                : new ReleasePlan(null, List.of(), List.of(), 0, 0, null, List.of());
    }

    private static String limited(List<String> items, int max) {
        String named = String.join(", ", items.stream().limit(max).toList());
        return items.size() > max ? named + " and " + (items.size() - max) + " more" : named;
    }
}
