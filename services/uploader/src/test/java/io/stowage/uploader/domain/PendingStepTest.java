package io.stowage.uploader.domain;

import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectVerified;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.events.manifest.LatestCheckpoint;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;

import static io.stowage.events.fixtures.ObjectVerifiedBuilder.objectVerified;
import static org.assertj.core.api.Assertions.assertThat;

/** The rule one verification result applies to a file of a waiting step, and when the step makes a pointer. */
class PendingStepTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T08:00:00Z"), ZoneOffset.UTC);
    private static final String A = "a".repeat(64);
    private static final String B = "b".repeat(64);
    private final PendingStep step = new PendingStep("checkpoint/e/r/000000000007", "e", "r", 7, List.of(
            new LatestCheckpoint.File("model.pt", "k/model.pt", 10, A),
            new LatestCheckpoint.File("optim.pt", "k/optim.pt", 20, B)), Set.of());

    private static ObjectVerified result(String store, String key, long bytes, String sha, VerifyResult r) {
        return result(store, key, bytes, sha, r, VerifyMethod.FULL_READ);
    }

    private static ObjectVerified result(String store, String key, long bytes, String sha, VerifyResult r,
                                         VerifyMethod method) {
        return objectVerified().meta(EventMeta.first("c", CLOCK)).assetId("checkpoint/e/r/000000000007")
                .store(store, "bucket").key(key, ObjectKind.CHECKPOINT_FILE).method(method).result(r)
                .matching(bytes, sha).build();
    }

    private static final LatestCheckpoint.File MODEL = new LatestCheckpoint.File("model.pt", "k/model.pt", 10, A);

    @Test
    void onlyAnOkFullReadOfTheUploadedBytesVerifiesAFileAndAnOkHeadChangesNothing() {
        assertThat(PendingStep.verdict(MODEL, result("primary", "k/model.pt", 10, A, VerifyResult.OK))).contains(true);
        assertThat(PendingStep.verdict(MODEL, result("primary", "k/model.pt", 10, A, VerifyResult.OK, VerifyMethod.HEAD)))
                .as("a HEAD proves size and metadata, not the bytes").isEmpty();
        for (VerifyResult bad : new VerifyResult[] {VerifyResult.MISMATCH, VerifyResult.MISSING, VerifyResult.ERROR}) {
            assertThat(PendingStep.verdict(MODEL, result("primary", "k/model.pt", 10, A, bad))).as("full read " + bad)
                    .contains(false);
            assertThat(PendingStep.verdict(MODEL, result("primary", "k/model.pt", 10, A, bad, VerifyMethod.HEAD)))
                    .as("HEAD " + bad).contains(false);
        }
        assertThat(PendingStep.verdict(MODEL, result("primary", "k/model.pt", 10, B, VerifyResult.OK)))
                .as("an OK read of other bytes than uploaded").contains(false);
        assertThat(PendingStep.verdict(MODEL, result("primary", "k/model.pt", 11, A, VerifyResult.OK)))
                .as("an OK read of another size").contains(false);
        assertThat(PendingStep.verdict(MODEL, result("primary", "k/model.pt", 11, A, VerifyResult.OK, VerifyMethod.HEAD)))
                .as("an OK HEAD of another size").contains(false);
    }

    @Test
    void onlyResultsForItsAssetInThePrimaryStoreConcernTheStep() {
        assertThat(step.concerns(result("primary", "k/model.pt", 10, A, VerifyResult.OK))).isTrue();
        assertThat(step.concerns(result("replica", "k/model.pt", 10, A, VerifyResult.OK))).isFalse();
        ObjectVerified other = objectVerified().meta(EventMeta.first("c", CLOCK)).assetId("checkpoint/e/r/000000000008")
                .store("primary", "bucket").key("k/model.pt", ObjectKind.CHECKPOINT_FILE).method(VerifyMethod.FULL_READ)
                .result(VerifyResult.OK).matching(10, A).build();
        assertThat(step.concerns(other)).isFalse();
    }

    @Test
    void noPointerUntilEveryFileIsVerified() {
        PendingStep one = withVerified("k/model.pt");
        assertThat(one.verified()).isFalse();
        assertThat(one.pointer(-1, CLOCK.instant())).isEmpty();
        assertThat(withVerified("k/model.pt", "k/other.pt").verified()).as("a key that is not one of its files")
                .isFalse();
        PendingStep both = withVerified("k/model.pt", "k/optim.pt");
        LatestCheckpoint pointer = both.pointer(-1, CLOCK.instant()).orElseThrow();
        assertThat(pointer.step()).isEqualTo(7);
        assertThat(pointer.files()).extracting(LatestCheckpoint.File::key).containsExactly("k/model.pt", "k/optim.pt");
        assertThat(pointer.updatedAt()).isEqualTo("2026-11-30T08:00:00Z");
    }

    @Test
    void thePointerNeverGoesBackToAnOlderStep() {
        PendingStep done = withVerified("k/model.pt", "k/optim.pt");
        assertThat(done.pointer(9, CLOCK.instant())).isEmpty();
        assertThat(done.pointer(7, CLOCK.instant())).isPresent();
    }

    private PendingStep withVerified(String... keys) {
        return new PendingStep(step.assetId(), step.experiment(), step.run(), step.step(), step.files(), Set.of(keys));
    }
}
