package io.stowage.cli.audit;

import io.stowage.store.LifecycleRule;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static io.stowage.cli.audit.LifecycleReport.Kind.ABORT_BEFORE_RESUME_WINDOW;
import static io.stowage.cli.audit.LifecycleReport.Kind.EXPIRATION;
import static io.stowage.cli.audit.LifecycleReport.Kind.NONCURRENT_EXPIRATION;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link LifecycleAudit} tried with rules that would let the store delete what retention keeps, each of which must be
 * reported, and rules that cannot, which must not (a warning nobody can act on teaches people to ignore the audit).
 */
class LifecycleAuditTest {
    private static final Duration DAY = Duration.ofHours(24);

    private static LifecycleRule expire(String id, String prefix, boolean narrowed) {
        return new LifecycleRule(id, true, prefix, narrowed, 30, null, null, null, 0);
    }

    private static LifecycleRule abort(String id, int days) {
        return new LifecycleRule(id, true, "", false, null, null, null, days, 0);
    }

    private static List<LifecycleReport.Finding> findings(Duration window, LifecycleRule... rules) {
        return LifecycleAudit.audit("primary", "b", Optional.of(List.of(rules)), window).findings();
    }

    @Test
    void everyExpirationThatReachesAKeptPrefixIsReported() {
        List<LifecycleReport.Finding> found = findings(DAY,
                expire("whole bucket", "", false),
                expire("steps", "checkpoints/", false),
                expire("one run", "checkpoints/e/r/", false),
                expire("short prefix", "check", false),
                expire("datasets", "datasets/", false),
                expire("models", "models/x/", false),
                expire("tagged steps", "checkpoints/", true),
                new LifecycleRule("by date", true, "", false, null, "2023-01-01T00:00:00Z", null, null, 0),
                new LifecycleRule("old versions", true, "models/", false, null, null, 2, null, 0));
        assertThat(found).extracting(LifecycleReport.Finding::rule).containsExactly("whole bucket", "steps", "one run",
                "short prefix", "datasets", "models", "tagged steps", "by date", "old versions");
        assertThat(found.get(8).kind()).isEqualTo(NONCURRENT_EXPIRATION);
        assertThat(found.subList(0, 8)).allMatch(f -> f.kind() == EXPIRATION);
        assertThat(found.get(0).detail()).contains("the whole bucket").contains("checkpoints/").contains("datasets/");
        assertThat(found.get(6).detail()).contains("narrowed");
    }

    @Test
    void rulesThatCannotRemoveWhatIsKeptAreNotReported() {
        assertThat(findings(DAY,
                expire("scratch", "tmp/", false),
                expire("sibling", "checkpoints-old/", false),
                new LifecycleRule("off", false, "", false, 1, null, null, 1, 0),
                new LifecycleRule("cheaper class", true, "checkpoints/", false, null, null, null, null, 2),
                new LifecycleRule("markers only", true, "", false, null, null, null, null, 0))).isEmpty();
    }

    @Test
    void anAbortSoonerThanTheResumeWindowIsReportedAndR2sSevenDaysIsNotUnderADay() {
        assertThat(findings(DAY, abort("Default Multipart Abort Rule", 7))).isEmpty();
        assertThat(findings(Duration.ofDays(10), abort("Default Multipart Abort Rule", 7)))
                .extracting(LifecycleReport.Finding::kind).containsExactly(ABORT_BEFORE_RESUME_WINDOW);
        assertThat(findings(Duration.ofHours(36), abort("one day", 1)))
                .extracting(LifecycleReport.Finding::kind).containsExactly(ABORT_BEFORE_RESUME_WINDOW);
        assertThat(findings(DAY, abort("one day", 1))).isEmpty();
    }

    @Test
    void aStoreWithoutLifecycleSupportIsCleanAndSaysSo() {
        LifecycleReport report = LifecycleAudit.audit("primary", "b", Optional.empty(), DAY);
        assertThat(report.clean()).isTrue();
        assertThat(report.supported()).isFalse();
        assertThat(report.summary()).contains("no lifecycle support");
        LifecycleReport warned = LifecycleAudit.audit("replica", "r", Optional.of(List.of(expire("x", "", false))), DAY);
        assertThat(warned.clean()).isFalse();
        assertThat(warned.summary()).isEqualTo("replica (bucket r): 1 lifecycle rules, 1 warnings");
    }
}
