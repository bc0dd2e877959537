package io.stowage.uploader.persistence;

import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectVerified;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.events.manifest.LatestCheckpoint;
import io.stowage.uploader.domain.PendingStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static io.stowage.events.fixtures.ObjectVerifiedBuilder.objectVerified;
import static org.assertj.core.api.Assertions.assertThat;

/** The steps kept in memory never differ from what is on disk: a new instance on the same directory (a restart) reads the same. */
class PendingStepsTest {
    @TempDir
    Path dir;

    @Test
    void everySavedChangeIsOnDiskForTheNextInstance() {
        PendingSteps steps = new PendingSteps(dir);
        PendingStep none = step("checkpoint/e/r/000000000001", Set.of());
        steps.save(none);
        assertThat(steps.find(none.assetId())).contains(none);
        PendingStep one = step(none.assetId(), Set.of("k0"));
        steps.save(one);

        assertThat(steps.find(one.assetId())).contains(one);
        assertThat(new PendingSteps(dir).find(one.assetId())).as("after a restart").contains(one);
    }

    @Test
    void aStepRecordedAgainBeforeItsUploadKeepsTheResultsAlreadyCounted() {
        PendingSteps steps = new PendingSteps(dir);
        PendingStep fresh = step("checkpoint/e/r/000000000003", Set.of());
        assertThat(steps.saveIfAbsent(fresh)).isTrue();
        PendingStep oneVerified = step(fresh.assetId(), Set.of("k0"));
        steps.save(oneVerified);

        // the redelivered checkpoint.published records the step again before uploading: the result stays counted
        assertThat(steps.saveIfAbsent(fresh)).isFalse();
        assertThat(steps.find(fresh.assetId())).contains(oneVerified);
        assertThat(new PendingSteps(dir).saveIfAbsent(fresh)).as("after a restart").isFalse();
        assertThat(new PendingSteps(dir).find(fresh.assetId())).contains(oneVerified);
    }

    @Test
    void aForgottenStepIsGoneFromMemoryAndDisk() {
        PendingSteps steps = new PendingSteps(dir);
        PendingStep step = step("checkpoint/e/r/000000000002", Set.of("k1"));
        steps.save(step);
        steps.find(step.assetId());

        steps.forget(step.assetId());

        assertThat(steps.find(step.assetId())).isEmpty();
        assertThat(new PendingSteps(dir).find(step.assetId())).isEmpty();
    }

    @Test
    void holdsAnswersForAStepInMemoryOnDiskOnlyAndNotAfterItIsForgotten() {
        PendingSteps steps = new PendingSteps(dir);
        for (int i = 0; i < PendingSteps.CACHED_STEPS + 2; i++) {
            steps.save(step("checkpoint/e/r/" + String.format("%012d", i), Set.of()));
        }
        assertThat(steps.holds("checkpoint/e/r/000000000000")).as("evicted from memory, still on disk").isTrue();
        assertThat(steps.holds("checkpoint/e/r/" + String.format("%012d", PendingSteps.CACHED_STEPS + 1)))
                .as("in memory").isTrue();
        assertThat(new PendingSteps(dir).holds("checkpoint/e/r/000000000001")).as("after a restart").isTrue();
        assertThat(steps.holds("dataset/speech/r1")).as("never pending").isFalse();
        steps.forget("checkpoint/e/r/000000000001");
        assertThat(steps.holds("checkpoint/e/r/000000000001")).as("forgotten").isFalse();
    }

    @Test
    void moreStepsThanKeptInMemoryAreStillFoundFromDisk() {
        PendingSteps steps = new PendingSteps(dir);
        for (int i = 0; i < PendingSteps.CACHED_STEPS + 5; i++) {
            steps.save(step("checkpoint/e/r/" + String.format("%012d", i), Set.of("k" + (i % 2))));
        }
        for (int i = 0; i < PendingSteps.CACHED_STEPS + 5; i++) {
            assertThat(steps.find("checkpoint/e/r/" + String.format("%012d", i)).map(PendingStep::verifiedKeys))
                    .contains(Set.of("k" + (i % 2)));
        }
    }

    @Test
    void aResultAppendsOneLineAndLeavesTheStepFileAsItWas() throws Exception {
        PendingSteps steps = new PendingSteps(dir);
        PendingStep none = step("checkpoint/e/r/000000000004", Set.of());
        steps.save(none);
        Path json;
        try (var files = Files.list(dir)) {
            json = files.filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow();
        }
        byte[] before = Files.readAllBytes(json);

        steps.save(step(none.assetId(), Set.of("k0")));
        steps.save(step(none.assetId(), Set.of("k0", "k1")));

        assertThat(Files.readAllBytes(json)).as("the step file is written once").isEqualTo(before);
        Path log = dir.resolve(json.getFileName().toString().replace(".json", ".results"));
        assertThat(Files.readString(log)).isEqualTo("+\"k0\"\n+\"k1\"\n");
        assertThat(new PendingSteps(dir).find(none.assetId()).map(PendingStep::verifiedKeys))
                .contains(Set.of("k0", "k1"));
    }

    @Test
    void aBadResultAfterAGoodOneUnmarksTheKeyAfterARestart() {
        PendingSteps steps = new PendingSteps(dir);
        String id = "checkpoint/e/r/000000000005";
        steps.save(step(id, Set.of()));
        steps.save(step(id, Set.of("k0", "k1")));
        steps.save(step(id, Set.of("k1")));

        assertThat(new PendingSteps(dir).find(id).map(PendingStep::verifiedKeys)).contains(Set.of("k1"));
        assertThat(new PendingSteps(dir).find(id).orElseThrow().verified()).isFalse();
    }

    @Test
    void aLineCutShortByACrashIsDroppedAndTheNextResultIsReadRight() throws Exception {
        PendingSteps steps = new PendingSteps(dir);
        String id = "checkpoint/e/r/000000000006";
        steps.save(step(id, Set.of()));
        steps.save(step(id, Set.of("k0")));
        Path log;
        try (var files = Files.list(dir)) {
            log = files.filter(f -> f.toString().endsWith(".results")).findFirst().orElseThrow();
        }
        // a crash in the middle of appending "+\"k1\"\n": never acknowledged, so never counted
        Files.writeString(log, "+\"k", java.nio.file.StandardOpenOption.APPEND);

        PendingSteps restarted = new PendingSteps(dir);
        assertThat(restarted.find(id).map(PendingStep::verifiedKeys)).contains(Set.of("k0"));
        restarted.save(step(id, Set.of()));
        assertThat(new PendingSteps(dir).find(id).map(PendingStep::verifiedKeys)).contains(Set.of());
        assertThat(Files.readString(log)).isEqualTo("+\"k0\"\n-\"k0\"\n");
    }

    @Test
    void aNewVersionOfTheStepDropsTheResultsOfTheOldOne() {
        PendingSteps steps = new PendingSteps(dir);
        String id = "checkpoint/e/r/000000000007";
        steps.save(step(id, Set.of()));
        steps.save(step(id, Set.of("k0", "k1")));
        PendingStep other = new PendingStep(id, "e", "r", 1,
                List.of(new LatestCheckpoint.File("a.bin", "k0", 5, "2".repeat(64))), Set.of());

        steps.save(other);

        assertThat(new PendingSteps(dir).find(id)).contains(other);
    }

    @Test
    void aKeyWithANewlineOrQuoteSurvivesTheLog() {
        PendingSteps steps = new PendingSteps(dir);
        String id = "checkpoint/e/r/000000000008";
        List<LatestCheckpoint.File> files = List.of(new LatestCheckpoint.File("a", "odd\n\"key\"+-", 1, "3".repeat(64)));
        steps.save(new PendingStep(id, "e", "r", 1, files, Set.of()));
        steps.save(new PendingStep(id, "e", "r", 1, files, Set.of("odd\n\"key\"+-")));

        assertThat(new PendingSteps(dir).find(id).orElseThrow().verified()).isTrue();
    }

    @Test
    void aDamagedCompleteLineIsAnErrorNotAGuess() throws Exception {
        PendingSteps steps = new PendingSteps(dir);
        String id = "checkpoint/e/r/000000000009";
        steps.save(step(id, Set.of()));
        steps.save(step(id, Set.of("k0")));
        Path log;
        try (var files = Files.list(dir)) {
            log = files.filter(f -> f.toString().endsWith(".results")).findFirst().orElseThrow();
        }
        Files.writeString(log, "?\"k1\"\n", java.nio.file.StandardOpenOption.APPEND);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new PendingSteps(dir).find(id))
                .isInstanceOf(java.io.UncheckedIOException.class).hasMessageContaining("is not +");
    }

    @Test
    void applyChangesOnlyWhatTheRuleSaysAndEachChangeIsOneLineOnDisk() throws Exception {
        PendingSteps steps = new PendingSteps(dir);
        String id = "checkpoint/e/r/000000000010";
        steps.save(step(id, Set.of()));
        assertThat(steps.apply(result("checkpoint/e/r/000000000099", "k0", 3, "0", VerifyResult.OK, VerifyMethod.FULL_READ)))
                .as("no step waits for that asset").isEmpty();
        assertThat(steps.apply(result(id, "k0", 3, "0", VerifyResult.OK, VerifyMethod.HEAD)).orElseThrow())
                .as("an OK HEAD is not a full read").isFalse();
        assertThat(resultsLog()).as("and changes nothing on disk").isNull();
        steps.apply(result(id, "k0", 3, "0", VerifyResult.OK, VerifyMethod.FULL_READ));
        steps.apply(result(id, "k1", 4, "2", VerifyResult.OK, VerifyMethod.FULL_READ)); // other bytes than uploaded
        steps.apply(result(id, "k9", 4, "1", VerifyResult.OK, VerifyMethod.FULL_READ)); // not one of its files
        assertThat(steps.find(id).orElseThrow().verifiedKeys()).containsExactly("k0");
        assertThat(steps.apply(result(id, "k1", 4, "1", VerifyResult.OK, VerifyMethod.FULL_READ))).contains(true);
        steps.apply(result(id, "k1", 4, "1", VerifyResult.OK, VerifyMethod.FULL_READ)); // again: no change, no line
        assertThat(Files.readString(resultsLog())).isEqualTo("+\"k0\"\n+\"k1\"\n");

        assertThat(steps.apply(result(id, "k1", 4, "1", VerifyResult.MISMATCH, VerifyMethod.HEAD)))
                .as("a later bad HEAD withdraws it").contains(false);
        assertThat(Files.readString(resultsLog())).endsWith("-\"k1\"\n");
        assertThat(new PendingSteps(dir).find(id).orElseThrow().verifiedKeys()).as("after a restart").containsExactly("k0");
        assertThat(new PendingSteps(dir).apply(result(id, "k1", 4, "1", VerifyResult.OK, VerifyMethod.FULL_READ))
                ).as("a restarted instance goes on from the log").contains(true);
    }

    @Test
    void aStepOfTwentyThousandFilesTakesOneLinePerChange() throws Exception {
        int n = 20_000;
        List<LatestCheckpoint.File> files = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            files.add(new LatestCheckpoint.File(String.format("shard-%05d.bin", i), String.format("ckpt/e/r/1/shard-%05d.bin", i),
                    i, "0".repeat(64)));
        }
        String id = "checkpoint/e/r/000000000011";
        PendingSteps steps = new PendingSteps(dir);
        steps.save(new PendingStep(id, "e", "r", 1, files, Set.of()));
        int verifiedSeen = 0;
        for (LatestCheckpoint.File f : files) {
            steps.apply(result(id, f.key(), f.bytes(), "0", VerifyResult.OK, VerifyMethod.HEAD));
            if (steps.apply(result(id, f.key(), f.bytes(), "0", VerifyResult.OK, VerifyMethod.FULL_READ)).orElseThrow()) {
                verifiedSeen++;
            }
        }
        assertThat(verifiedSeen).as("verified only once the last file was read in full").isEqualTo(1);
        assertThat(Files.readAllLines(resultsLog())).hasSize(n);
        assertThat(new PendingSteps(dir).find(id).orElseThrow().verified()).isTrue();
    }

    private Path resultsLog() throws java.io.IOException {
        try (var listed = Files.list(dir)) {
            return listed.filter(f -> f.toString().endsWith(".results")).findFirst().orElse(null);
        }
    }

    private static ObjectVerified result(String assetId, String key, long bytes, String shaDigit, VerifyResult r,
                                         VerifyMethod method) {
        return objectVerified().meta(EventMeta.first("c", java.time.Clock.systemUTC())).assetId(assetId)
                .store("primary", "bucket").key(key, ObjectKind.CHECKPOINT_FILE).method(method).result(r)
                .matching(bytes, shaDigit.repeat(64)).build();
    }

    private static PendingStep step(String assetId, Set<String> verified) {
        List<LatestCheckpoint.File> files = List.of(new LatestCheckpoint.File("a.bin", "k0", 3, "0".repeat(64)),
                new LatestCheckpoint.File("b.bin", "k1", 4, "1".repeat(64)));
        return new PendingStep(assetId, "e", "r", 1, files, verified);
    }
}
