package io.stowage.ledger.domain;

import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import org.junit.jupiter.api.Test;

import static io.stowage.ledger.domain.Events.SHA_A;
import static io.stowage.ledger.domain.Events.SHA_B;
import static io.stowage.ledger.domain.Events.T0;
import static org.assertj.core.api.Assertions.assertThat;

class ObjectProjectionTest {
    private static final String KEY = "datasets/speech/r1/shards/" + SHA_A + ".tar.zst";

    @Test
    void uploadThenHeadAndFullReadGiveBothResults() {
        var uploaded = Events.uploaded(T0, KEY, 1000, SHA_A);
        var head = Events.verified(T0.plusSeconds(1), KEY, VerifyMethod.HEAD, VerifyResult.OK);
        var fullRead = Events.verified(T0.plusSeconds(2), KEY, VerifyMethod.FULL_READ, VerifyResult.OK);
        ObjectRecord o = ObjectProjection.apply(null, uploaded);
        o = ObjectProjection.apply(o, head);
        o = ObjectProjection.apply(o, fullRead);
        assertThat(o.toEvidence()).extracting("uploadedEventId", "headEventId", "fullReadEventId")
                .containsExactly(uploaded.meta().eventId(), head.meta().eventId(), fullRead.meta().eventId());

        assertThat(o.toEvidence()).satisfies(e -> {
            assertThat(e.key()).isEqualTo(KEY);
            assertThat(e.bytes()).isEqualTo(1000);
            assertThat(e.sha256()).isEqualTo(SHA_A);
            assertThat(e.kind()).isEqualTo(ObjectKind.SHARD);
            assertThat(e.localPath()).isEqualTo("/staging/speech/r1/00000.tar.zst");
            assertThat(e.headResult()).isEqualTo(VerifyResult.OK);
            assertThat(e.fullReadResult()).isEqualTo(VerifyResult.OK);
        });
        assertThat(o.headAt()).isEqualTo(T0.plusSeconds(1));
    }

    @Test
    void theVerificationTheLedgerAppliedLastWinsWhateverItsEventTime() {
        ObjectRecord o = ObjectProjection.apply(null, Events.uploaded(T0, KEY, 1000, SHA_A));
        o = ObjectProjection.apply(o, Events.verified(T0.plusSeconds(10), KEY, VerifyMethod.HEAD, VerifyResult.OK));
        var missing = Events.verified(T0.plusSeconds(5), KEY, VerifyMethod.HEAD, VerifyResult.MISSING);
        o = ObjectProjection.apply(o, missing);

        assertThat(o.headResult()).as("a producer clock behind must not hide a newer bad result")
                .isEqualTo(VerifyResult.MISSING);
        assertThat(o.headEventId()).as("the id of the result that won").isEqualTo(missing.meta().eventId());
        assertThat(o.headAt()).isEqualTo(T0.plusSeconds(5));
        assertThat(o.fullReadResult()).isNull();
    }

    @Test
    void aLaterOkFullReadOfTheSameContentReplacesAMismatch() {
        ObjectRecord o = ObjectProjection.apply(null, Events.uploaded(T0, KEY, 1000, SHA_A));
        o = ObjectProjection.apply(o, Events.verified(T0.plusSeconds(2), KEY, VerifyMethod.FULL_READ, VerifyResult.MISMATCH));
        var reRead = Events.verified(T0.plusSeconds(1), KEY, VerifyMethod.FULL_READ, VerifyResult.OK);
        o = ObjectProjection.apply(o, reRead);

        assertThat(o.fullReadResult()).isEqualTo(VerifyResult.OK);
        assertThat(o.fullReadEventId()).isEqualTo(reRead.meta().eventId());
    }

    @Test
    void aReUploadWithOtherContentInheritsNeitherTheOldMismatchNorTheOldOk() {
        String manifest = "datasets/speech/latest.json";
        ObjectRecord old = ObjectProjection.apply(null, Events.uploaded(T0, manifest, 1000, SHA_A));
        old = ObjectProjection.apply(old, Events.verified(T0, manifest, VerifyMethod.HEAD, VerifyResult.OK));
        ObjectRecord bad = ObjectProjection.apply(old, Events.verified(T0, manifest, VerifyMethod.FULL_READ,
                VerifyResult.MISMATCH));
        ObjectRecord good = ObjectProjection.apply(old, Events.verified(T0, manifest, VerifyMethod.FULL_READ,
                VerifyResult.OK));

        for (ObjectRecord before : new ObjectRecord[]{bad, good}) {
            var reUpload = Events.uploaded(T0.plusSeconds(60), manifest, 1200, SHA_B);
            ObjectRecord after = ObjectProjection.apply(before, reUpload);

            assertThat(after.sha256()).isEqualTo(SHA_B);
            assertThat(after.bytes()).isEqualTo(1200);
            assertThat(after.uploadedEventId()).isEqualTo(reUpload.meta().eventId());
            assertThat(after.headResult()).isNull();
            assertThat(after.headEventId()).isNull();
            assertThat(after.fullReadResult()).isNull();
            assertThat(after.fullReadEventId()).isNull();
        }
    }

    @Test
    void aVerificationOfTheOldContentArrivingAfterAReUploadChangesNothing() {
        ObjectRecord o = ObjectProjection.apply(null, Events.uploaded(T0, KEY, 1000, SHA_A));
        o = ObjectProjection.apply(o, Events.uploaded(T0.plusSeconds(60), KEY, 1200, SHA_B));
        ObjectRecord after = ObjectProjection.apply(o, Events.verified(T0.plusSeconds(61), KEY, VerifyMethod.FULL_READ,
                VerifyResult.OK)); // expects 1000 bytes of SHA_A: another upload

        assertThat(after).isEqualTo(o);
        assertThat(after.fullReadResult()).isNull();
    }

    @Test
    void aReUploadOfTheSameContentKeepsItsResults() {
        ObjectRecord o = ObjectProjection.apply(null, Events.uploaded(T0, KEY, 1000, SHA_A));
        var mismatch = Events.verified(T0, KEY, VerifyMethod.FULL_READ, VerifyResult.MISMATCH);
        o = ObjectProjection.apply(o, mismatch);
        o = ObjectProjection.apply(o, Events.uploaded(T0.plusSeconds(60), KEY, 1000, SHA_A));

        assertThat(o.fullReadResult()).isEqualTo(VerifyResult.MISMATCH);
        assertThat(o.fullReadEventId()).isEqualTo(mismatch.meta().eventId());
    }

    @Test
    void verificationBeforeUploadKeepsResultAndUploadFillsTheRest() {
        ObjectRecord o = ObjectProjection.apply(null, Events.verified(T0.plusSeconds(3), KEY, VerifyMethod.HEAD, VerifyResult.OK));
        assertThat(o.sha256()).isEqualTo(SHA_A);
        assertThat(o.localPath()).isNull();

        o = ObjectProjection.apply(o, Events.uploaded(T0, KEY, 1000, SHA_A));

        assertThat(o.localPath()).isEqualTo("/staging/speech/r1/00000.tar.zst");
        assertThat(o.etag()).isEqualTo("etag-1");
        assertThat(o.headResult()).isEqualTo(VerifyResult.OK);
    }

    @Test
    void theUploadAppliedLastIsTheObjectWhateverItsEventTime() {
        ObjectRecord o = ObjectProjection.apply(null, Events.uploaded(T0.plusSeconds(5), KEY, 2000, SHA_B));
        ObjectRecord after = ObjectProjection.apply(o, Events.uploaded(T0, KEY, 1000, SHA_A));

        assertThat(after.bytes()).isEqualTo(1000);
        assertThat(after.sha256()).isEqualTo(SHA_A);
    }
}
