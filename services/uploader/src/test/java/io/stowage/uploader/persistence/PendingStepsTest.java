package io.stowage.uploader.persistence;

import io.stowage.events.manifest.LatestCheckpoint;
import io.stowage.uploader.domain.PendingStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

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

    private static PendingStep step(String assetId, Set<String> verified) {
        List<LatestCheckpoint.File> files = List.of(new LatestCheckpoint.File("a.bin", "k0", 3, "0".repeat(64)),
                new LatestCheckpoint.File("b.bin", "k1", 4, "1".repeat(64)));
        return new PendingStep(assetId, "e", "r", 1, files, verified);
    }
}
