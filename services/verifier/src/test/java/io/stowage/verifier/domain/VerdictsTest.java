package io.stowage.verifier.domain;

import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static io.stowage.verifier.domain.FullReadPolicyTest.SHA;
import static org.assertj.core.api.Assertions.assertThat;

class VerdictsTest {
    final Clock clock = Clock.fixed(Instant.parse("2026-11-30T02:00:00Z"), ZoneOffset.UTC);
    final ObjectUploaded uploaded = FullReadPolicyTest.uploaded("primary", ObjectKind.SHARD, "datasets/d/r/shards/x");
    final String other = "b".repeat(64);

    @Test
    void sameSizeAndSha256IsOkCausedByTheUpload() {
        ObjectVerified v = Verdicts.of(uploaded, VerifyMethod.HEAD, new Observation.Found(10, SHA), clock);
        assertThat(v.result()).isEqualTo(VerifyResult.OK);
        assertThat(v.detail()).isNull();
        assertThat(v).extracting(ObjectVerified::store, ObjectVerified::bucket, ObjectVerified::key,
                ObjectVerified::expectedBytes, ObjectVerified::expectedSha256, ObjectVerified::actualBytes,
                ObjectVerified::actualSha256).containsExactly("primary", "stowage-primary", "datasets/d/r/shards/x",
                10L, SHA, 10L, SHA);
        assertThat(v.meta().causationId()).isEqualTo("up-1");
        assertThat(v.meta().correlationId()).isEqualTo("flow-1");
        assertThat(v.meta().time()).isEqualTo(clock.instant());
    }

    @Test
    void aDifferentDigestSizeOrNoMetadataIsAMismatchNamingBoth() {
        ObjectVerified digest = Verdicts.of(uploaded, VerifyMethod.FULL_READ, new Observation.Found(10, other), clock);
        assertThat(digest.result()).isEqualTo(VerifyResult.MISMATCH);
        assertThat(digest.actualSha256()).isEqualTo(other);
        assertThat(digest.detail()).isEqualTo("recomputed sha256 " + other + ", expected " + SHA);

        ObjectVerified size = Verdicts.of(uploaded, VerifyMethod.HEAD, new Observation.Found(11, SHA), clock);
        assertThat(size.result()).isEqualTo(VerifyResult.MISMATCH);
        assertThat(size.detail()).isEqualTo("size 11 bytes, expected 10");

        ObjectVerified bare = Verdicts.of(uploaded, VerifyMethod.HEAD, new Observation.Found(10, null), clock);
        assertThat(bare.result()).isEqualTo(VerifyResult.MISMATCH);
        assertThat(bare.detail()).contains("no sha256 metadata");
    }

    @Test
    void missingAndUnreachableAreDistinct() {
        ObjectVerified missing = Verdicts.of(uploaded, VerifyMethod.HEAD, new Observation.Missing(), clock);
        assertThat(missing.result()).isEqualTo(VerifyResult.MISSING);
        assertThat(missing.actualBytes()).isEqualTo(-1);
        assertThat(missing.actualSha256()).isNull();

        ObjectVerified error = Verdicts.of(uploaded, VerifyMethod.FULL_READ,
                new Observation.Unreachable("primary store: connection refused"), clock);
        assertThat(error.result()).isEqualTo(VerifyResult.ERROR);
        assertThat(error.detail()).isEqualTo("primary store: connection refused");
    }

    @Test
    void theSamplingReasonIsTheDetailWhenOkAndFollowsTheProblemOtherwise() {
        ObjectVerified ok = Verdicts.of(uploaded, VerifyMethod.FULL_READ, new Observation.Found(10, SHA),
                "full read: first of asset", clock);
        assertThat(ok.result()).isEqualTo(VerifyResult.OK);
        assertThat(ok.detail()).isEqualTo("full read: first of asset");

        ObjectVerified bad = Verdicts.of(uploaded, VerifyMethod.FULL_READ, new Observation.Found(10, other),
                "full read: manifest", clock);
        assertThat(bad.detail()).isEqualTo("recomputed sha256 " + other + ", expected " + SHA + "; full read: manifest");

        ObjectVerified missing = Verdicts.of(uploaded, VerifyMethod.HEAD, new Observation.Missing(),
                "no full read: not sampled (seed 0, fraction 0.0, draw 0.5000)", clock);
        assertThat(missing.detail()).isEqualTo("no object at primary:stowage-primary/datasets/d/r/shards/x"
                + "; no full read: not sampled (seed 0, fraction 0.0, draw 0.5000)");
    }
}
