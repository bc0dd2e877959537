package io.stowage.verifier.domain;

import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.ObjectEvidence;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A presigned link is made only for a copy the ledger has proven and the store holds now, as recorded. */
class LinkEvidenceTest {
    private static final String KEY = "models/m/r1/abc/weights.bin";
    private static final String SHA = "a".repeat(64);
    private static final Long HERE = 1024L;

    private static ObjectEvidence copy(String store, String bucket, String sha, VerifyResult head, VerifyResult full) {
        return new ObjectEvidence(store, bucket, KEY, ObjectKind.MODEL_FILE, 1024, sha, null, head, full);
    }

    private static LinkEvidence.Decision decide(List<ObjectEvidence> copies, Long head) {
        return LinkEvidence.decide("primary", "b1", KEY, copies, head);
    }

    @Test
    void aProvenCopyHeldAsRecordedIsLinked() {
        LinkEvidence.Decision d = decide(List.of(copy("primary", "b1", SHA, VerifyResult.OK, VerifyResult.OK)), HERE);
        assertThat(d.allowed()).isTrue();
        assertThat(d.copy().sha256()).isEqualTo(SHA);
        assertThat(decide(List.of(copy("primary", "b1", SHA, VerifyResult.OK, null)), HERE).allowed())
                .as("an OK HEAD before the first full read").isTrue();
    }

    @Test
    void anyBadNewestEvidenceRefusesEvenBesideAnOkOne() {
        for (VerifyResult bad : List.of(VerifyResult.MISMATCH, VerifyResult.MISSING, VerifyResult.ERROR)) {
            assertThat(decide(List.of(copy("primary", "b1", SHA, VerifyResult.OK, bad)), HERE).refusal())
                    .isEqualTo("the newest evidence of primary:" + KEY + " is not OK (HEAD OK, full read " + bad + ")");
            assertThat(decide(List.of(copy("primary", "b1", SHA, bad, VerifyResult.OK)), HERE).allowed()).isFalse();
        }
    }

    @Test
    void anUnknownUnprovenMovedOrChangedCopyIsRefused() {
        assertThat(decide(List.of(), HERE).refusal()).isEqualTo("the ledger holds no stored copy of primary:" + KEY);
        assertThat(decide(List.of(copy("replica", "b1", SHA, VerifyResult.OK, VerifyResult.OK)), HERE).allowed())
                .as("a copy in another store only").isFalse();
        assertThat(decide(List.of(copy("primary", "other", SHA, VerifyResult.OK, VerifyResult.OK)), HERE).allowed())
                .as("a copy in another bucket").isFalse();
        assertThat(decide(List.of(copy("primary", "b1", null, VerifyResult.OK, VerifyResult.OK)), HERE).allowed())
                .as("no recorded SHA-256").isFalse();
        assertThat(decide(List.of(copy("primary", "b1", SHA, null, null)), HERE).refusal()).contains("not verified yet");
        assertThat(decide(List.of(copy("primary", "b1", SHA, VerifyResult.OK, VerifyResult.OK)), null)
                .refusal()).isEqualTo("primary:" + KEY + " is not in the store now");
        assertThat(decide(List.of(copy("primary", "b1", SHA, VerifyResult.OK, VerifyResult.OK)),
                1023L).refusal()).contains("holds 1023 bytes now, the ledger 1024");
    }
}
