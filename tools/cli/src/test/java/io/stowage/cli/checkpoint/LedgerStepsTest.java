package io.stowage.cli.checkpoint;

import io.stowage.cli.CliException;
import io.stowage.events.ledger.CheckpointStepEvidence;
import io.stowage.events.ledger.RunCheckpoints;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** {@link LedgerSteps}: what pin, unpin and fetch say of a run or step from the ledger's steps. */
class LedgerStepsTest {
    private static final Instant EXPIRED_AT = Instant.parse("2026-11-30T08:00:00Z");

    private static CheckpointStepEvidence step(long n, String expiredEventId) {
        return new CheckpointStepEvidence(n, null, 1, 10, Map.of(), List.of(), Instant.parse("2026-11-29T08:00:00Z"), false,
                expiredEventId, expiredEventId == null ? null : EXPIRED_AT, expiredEventId == null ? 0 : 10);
    }

    private static LedgerSteps run(CheckpointStepEvidence... steps) {
        return new LedgerSteps(new RunCheckpoints("e2e", "run1", List.of(steps)));
    }

    @Test
    void stepsRetentionExpiredAreCountedNotListedAsStored() {
        assertThat(catchThrowableOfType(CliException.class, () -> run(step(50, "ev-50"), step(100, null))
                .require(75, "nothing pinned")).getMessage())
                .isEqualTo("the ledger knows no step 75 of e2e/run1 (its stored steps: 100; 1 expired by retention): nothing pinned");
        assertThat(catchThrowableOfType(CliException.class, () -> run(step(50, "ev-50")).require(75, "nothing pinned"))
                .getMessage()).contains("(its stored steps: none; 1 expired by retention)");
    }

    @Test
    void aStepTheLedgerDoesNotKnowIsRefusedNamingTheStepsItKnows() {
        CliException e = catchThrowableOfType(CliException.class,
                () -> run(step(100, null), step(200, null)).require(999, "nothing pinned"));

        assertThat(e.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(e.getMessage()).isEqualTo("the ledger knows no step 999 of e2e/run1 (its stored steps: 100, 200): nothing pinned");
    }

    @Test
    void aRunTheLedgerDoesNotKnowIsRefused() {
        CliException e = catchThrowableOfType(CliException.class, () -> run().require(100, "nothing unpinned"));

        assertThat(e.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(e.getMessage()).isEqualTo("the ledger knows no run e2e/run1 (no checkpoint step of it was published):"
                + " nothing unpinned");
    }

    @Test
    void manyStepsAreNamedByTheirRange() {
        LedgerSteps many = new LedgerSteps(new RunCheckpoints("e2e", "run1",
                LongStream.rangeClosed(1, 12).mapToObj(n -> step(n * 100, null)).toList()));

        assertThat(catchThrowableOfType(CliException.class, () -> many.require(50, "nothing pinned")).getMessage())
                .isEqualTo("the ledger knows no step 50 of e2e/run1 (its stored steps: 100 to 1200, 12 in all): nothing pinned");
    }

    @Test
    void aKnownStepIsReturned() {
        assertThat(run(step(100, null), step(200, null)).require(200, "nothing pinned").step()).isEqualTo(200);
    }

    @Test
    void aStepRetentionExpiredIsSaidToBeExpiredWithWhenAndTheEvent() {
        assertThat(run(step(50, "ev-50"), step(100, null)).whyNotStored(50)).contains("step 50 of e2e/run1 was expired by"
                + " retention at 2026-11-30T08:00:00Z (checkpoint.expired ev-50): its objects were deleted from the store");
    }

    @Test
    void aStepTheLedgerHoldsAsStoredHasNoReasonFromTheLedger() {
        assertThat(run(step(50, null)).whyNotStored(50)).isEmpty();
        assertThat(run(step(50, null)).whyNotStored(60)).contains("the ledger knows no step 60 of e2e/run1 (its stored steps: 50)");
    }

    @Test
    void aStepsPublishedFilesAreTheLedgersObjectsAndTooFewAreRefused() {
        String a = "checkpoints/e2e/run1/000000000100/" + "a".repeat(64) + "/model.pt";
        String b = "checkpoints/e2e/run1/000000000100/" + "b".repeat(64) + "/opt/optimizer.pt";
        java.util.function.BiFunction<Integer, List<String>, CheckpointStepEvidence> evidence = (count, keys) ->
                new CheckpointStepEvidence(100, new io.stowage.events.ledger.AssetEvidence("checkpoint/e2e/run1/100",
                        "checkpoint", "/x", true, null, null, true, null, null, null, null, keys.stream().flatMap(k ->
                        java.util.stream.Stream.of("primary", "replica").map(store -> new io.stowage.events.ledger.ObjectEvidence(
                                store, "bucket", k, io.stowage.events.ObjectKind.CHECKPOINT_FILE, 1, null, null, null, null)))
                        .toList(), List.of()), count, 2, Map.of(), List.of(), null, false, null, null, 0);

        StoredCheckpoint both = run(evidence.apply(2, List.of(b, a))).published(100);
        assertThat(both.files()).extracting(StoredCheckpoint.StoredFile::path).containsExactly("model.pt", "opt/optimizer.pt");
        assertThat(both.files()).extracting(StoredCheckpoint.StoredFile::key).containsExactly(a, b);

        CliException tooFew = catchThrowableOfType(CliException.class, () -> run(evidence.apply(2, List.of(a))).published(100));
        assertThat(tooFew.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(tooFew.getMessage()).isEqualTo("the ledger records 1 stored files of step 100 of e2e/run1, which"
                + " published 2: nothing fetched");
        assertThat(catchThrowableOfType(CliException.class, () -> run(step(100, "ev-100")).published(100)).getMessage())
                .startsWith("step 100 of e2e/run1 was expired by retention");
        assertThat(catchThrowableOfType(CliException.class, () -> run(step(100, null)).published(200)).getMessage())
                .isEqualTo("the ledger knows no step 200 of e2e/run1 (its stored steps: 100): nothing fetched");
    }
}
