package io.stowage.cli.output;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.events.ConditionResult;
import io.stowage.events.EventCodec;
import io.stowage.events.FailedCondition;
import io.stowage.events.InventoryEntry;
import io.stowage.events.ledger.ReleaseOutcome;
import io.stowage.events.ledger.ReleasePlan;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@code stowage release} prints: the plan as JSON and as a table, and its exit code. */
class ReleaseReportTest {
    static final String SHA_A = "a".repeat(64);
    static final String SHA_B = "b".repeat(64);

    static List<ConditionResult> conditions(boolean fifthPasses) {
        return List.of(
                new ConditionResult(1, "objects-match", true, "2 checkpoint file(s) checked", List.of("up-1", "head-1")),
                new ConditionResult(2, "full-read", true, "1 object re-read in full with OK", List.of("full-1")),
                new ConditionResult(3, "provenance", true, "code commit abc", List.of("seal-1")),
                new ConditionResult(4, "second-copy", true, "not a key checkpoint", List.of()),
                new ConditionResult(5, "directory", fifthPasses, fifthPasses ? "2 file(s), 12 bytes"
                        : "unaccounted-file: file in no manifest of an asset: train.log", List.of("up-1", "head-1")));
    }

    static ReleaseOutcome passedDryRun() {
        ReleasePlan plan = new ReleasePlan("decision-1", List.of("checkpoint/exp/run/000000000001"), conditions(true), 2, 12,
                "c".repeat(64), List.of(new InventoryEntry("model.pt", 10, SHA_A), new InventoryEntry("provenance.json", 2, SHA_B)));
        return new ReleaseOutcome("req-1", "/vol/run/step-1", true, "passed", List.of(), false, null, plan);
    }

    static ReleaseOutcome denied() {
        ReleasePlan plan = new ReleasePlan("decision-2", List.of(), conditions(false), 0, 0, null, List.of());
        return new ReleaseOutcome("req-2", "/vol/run", true, "denied",
                List.of(new FailedCondition(5, "unaccounted-file", "file in no manifest of an asset: train.log")),
                false, null, plan);
    }

    @Test
    void theJsonPlanNamesAssetsConditionsWithEvidenceAndTheFilesAndBytesToBeFreed() throws Exception {
        JsonNode json = EventCodec.mapper().readTree(EventCodec.mapper().writeValueAsString(ReleaseReport.json(passedDryRun())));

        assertThat(json.get("gate").asText()).isEqualTo("passed");
        assertThat(json.get("dryRun").asBoolean()).isTrue();
        assertThat(json.get("assets").get(0).asText()).isEqualTo("checkpoint/exp/run/000000000001");
        assertThat(json.get("conditions")).hasSize(5);
        assertThat(json.get("conditions").get(1).get("name").asText()).isEqualTo("full-read");
        assertThat(json.get("conditions").get(1).get("passed").asBoolean()).isTrue();
        assertThat(json.get("conditions").get(1).get("evidence").get(0).asText()).isEqualTo("full-1");
        assertThat(json.get("files").get(0).get("path").asText()).isEqualTo("model.pt");
        assertThat(json.get("files").get(0).get("bytes").asLong()).isEqualTo(10);
        assertThat(json.get("files").get(0).get("sha256").asText()).isEqualTo(SHA_A);
        assertThat(json.get("fileCount").asInt()).isEqualTo(2);
        assertThat(json.get("totalBytes").asLong()).isEqualTo(12);
        assertThat(json.get("decisionEventId").asText()).isEqualTo("decision-1");
        assertThat(ReleaseReport.exitCode(passedDryRun())).isZero();
    }

    @Test
    void aDenialExitsThreeAndItsTableSaysWhichConditionFailed() {
        String table = ReleaseReport.table(denied());

        assertThat(ReleaseReport.exitCode(denied())).isEqualTo(CliException.DENIED).isEqualTo(3);
        assertThat(table).contains("gate denied (dry run: nothing deleted)", "would free: nothing (denied")
                .doesNotContain("0 file(s)");
        assertThat(table.lines().filter(l -> l.startsWith("5 ")).findFirst().orElseThrow())
                .contains("directory", "FAIL", "train.log");
        assertThat(table.lines().filter(l -> l.startsWith("2 ")).findFirst().orElseThrow()).contains("pass");
    }

    @Test
    void thePassingTableListsEachFileWithBytesAndTheEvidence() {
        String table = ReleaseReport.table(passedDryRun());

        assertThat(table).contains("assets: checkpoint/exp/run/000000000001", "evidence: full-1",
                "would free: 2 file(s), 12 bytes", "model.pt", "aaaaaaaaaaaa");
    }

    @Test
    void anApprovedReleaseThatWasRefusedExitsOne() {
        ReleaseOutcome refused = new ReleaseOutcome("req-3", "/vol/run/step-1", false, "passed", List.of(), false,
                "changed since the gate passed: added late.bin; nothing deleted", passedDryRun().plan());

        assertThat(ReleaseReport.exitCode(refused)).isEqualTo(CliException.FAILED);
        assertThat(ReleaseReport.table(refused)).contains("the release was refused: changed since the gate passed",
                "nothing deleted: approved 2 file(s), 12 bytes", "but not released").doesNotContain("freed: 2");
    }

    @Test
    void aDeniedReleaseSaysNothingWasDeletedNotThatItWouldFreeNoBytes() {
        ReleaseOutcome real = new ReleaseOutcome("req-5", "/vol/run", false, "denied", denied().failed(), false, null,
                denied().plan());

        assertThat(ReleaseReport.table(real)).contains("nothing deleted: denied, every file left as it was")
                .doesNotContain("would free", "freed:");
        assertThat(ReleaseReport.exitCode(real)).isEqualTo(CliException.DENIED);
    }

    @Test
    void aDoneReleaseSaysFreedNotWouldFree() {
        ReleaseOutcome done = new ReleaseOutcome("req-4", "/vol/run/step-1", false, "passed", List.of(), true, null,
                passedDryRun().plan());

        assertThat(ReleaseReport.table(done)).contains("released: the directory is gone", "freed: 2 file(s), 12 bytes")
                .doesNotContain("would free");
        assertThat(ReleaseReport.exitCode(done)).isZero();
    }
}
