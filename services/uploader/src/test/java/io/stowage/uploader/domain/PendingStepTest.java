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

    @Test
    void anOkHeadIsNotAFullReadAndTheFullReadMakesThePointer() {
        PendingStep headsOnly = step.with(result("primary", "k/model.pt", 10, A, VerifyResult.OK, VerifyMethod.HEAD))
                .with(result("primary", "k/optim.pt", 20, B, VerifyResult.OK, VerifyMethod.HEAD));
        assertThat(headsOnly.verified()).as("two OK HEADs, no full read").isFalse();
        assertThat(headsOnly.pointer(-1, CLOCK.instant())).isEmpty();

        PendingStep read = headsOnly.with(result("primary", "k/model.pt", 10, A, VerifyResult.OK))
                .with(result("primary", "k/optim.pt", 20, B, VerifyResult.OK));
        assertThat(read.verified()).isTrue();
        assertThat(read.with(result("primary", "k/optim.pt", 20, B, VerifyResult.OK, VerifyMethod.HEAD)).verified())
                .as("a later OK HEAD keeps the full read").isTrue();
        assertThat(read.with(result("primary", "k/optim.pt", 20, B, VerifyResult.MISMATCH, VerifyMethod.HEAD))
                .verified()).as("a later bad HEAD withdraws it").isFalse();
    }

    @Test
    void noPointerUntilEveryFileIsVerifiedOk() {
        PendingStep one = step.with(result("primary", "k/model.pt", 10, A, VerifyResult.OK));
        assertThat(one.pointer(-1, CLOCK.instant())).isEmpty();
        PendingStep both = one.with(result("primary", "k/optim.pt", 20, B, VerifyResult.OK));
        LatestCheckpoint pointer = both.pointer(-1, CLOCK.instant()).orElseThrow();
        assertThat(pointer.step()).isEqualTo(7);
        assertThat(pointer.files()).extracting(LatestCheckpoint.File::key).containsExactly("k/model.pt", "k/optim.pt");
        assertThat(pointer.updatedAt()).isEqualTo("2026-11-30T08:00:00Z");
    }

    @Test
    void aLaterMismatchWithdrawsAnOkAndOtherStoresOrHashesDoNotCount() {
        PendingStep s = step.with(result("primary", "k/model.pt", 10, A, VerifyResult.OK))
                .with(result("primary", "k/optim.pt", 20, B, VerifyResult.OK))
                .with(result("primary", "k/optim.pt", 20, B, VerifyResult.MISMATCH));
        assertThat(s.verifiedKeys()).containsExactly("k/model.pt");
        assertThat(s.with(result("replica", "k/optim.pt", 20, B, VerifyResult.OK)).verified()).isFalse();
        assertThat(s.with(result("primary", "k/optim.pt", 20, A, VerifyResult.OK)).verified()).isFalse();
        assertThat(s.with(result("primary", "k/optim.pt", 21, B, VerifyResult.OK)).verified()).isFalse();
        assertThat(s.with(result("primary", "k/optim.pt", 20, B, VerifyResult.OK)).verified()).isTrue();
    }

    @Test
    void thePointerNeverGoesBackToAnOlderStep() {
        PendingStep done = step.with(result("primary", "k/model.pt", 10, A, VerifyResult.OK))
                .with(result("primary", "k/optim.pt", 20, B, VerifyResult.OK));
        assertThat(done.pointer(9, CLOCK.instant())).isEmpty();
        assertThat(done.pointer(7, CLOCK.instant())).isPresent();
    }
}
