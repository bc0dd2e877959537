package io.stowage.ledger.domain;

import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.DeadLetterNote;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which dead letters about an asset still count: until every object of it was re-read in full after them. */
class DeadLetterEvidenceTest {
    private static final String ASSET = "checkpoint/exp/run1/000000000100";
    private static final DeadLetterEvidence.Row VERIFIED = new DeadLetterEvidence.Row("dlq:v-1", ASSET,
            "object.verified.dlq", "not an ObjectVerified", 10, false);

    private static ObjectRecord object(String store, String key, String fullReadEventId) {
        return new ObjectRecord(store, "b", key, ASSET, ObjectKind.CHECKPOINT_FILE, 3, "a".repeat(64), "e", null,
                Instant.EPOCH, VerifyResult.OK, Instant.EPOCH, fullReadEventId == null ? null : VerifyResult.OK,
                fullReadEventId == null ? null : Instant.EPOCH, "up-" + key, "head-" + key, fullReadEventId);
    }

    @Test
    void countsUntilEveryObjectInEveryStoreWasReadInFullAfterIt() {
        List<ObjectRecord> objects = List.of(object("primary", "a", "f-a"), object("primary", "b", "f-b"),
                object("replica", "a", "f-ra"));

        assertThat(DeadLetterEvidence.outstanding(ASSET, List.of(VERIFIED), objects,
                Map.of("f-a", 12L, "f-b", 15L, "f-ra", 9L)))
                .as("the replica copy was last read before the dead letter")
                .containsExactly(new DeadLetterNote("dlq:v-1", "object.verified.dlq", "not an ObjectVerified"));
        assertThat(DeadLetterEvidence.outstanding(ASSET, List.of(VERIFIED), objects,
                Map.of("f-a", 12L, "f-b", 15L, "f-ra", 11L))).as("every object re-read since").isEmpty();
    }

    @Test
    void anObjectNeverReadInFullOrAnAssetWithoutObjectsKeepsItCounting() {
        assertThat(DeadLetterEvidence.outstanding(ASSET, List.of(VERIFIED),
                List.of(object("primary", "a", "f-a"), object("primary", "manifest.json", null)), Map.of("f-a", 99L)))
                .hasSize(1);
        assertThat(DeadLetterEvidence.outstanding(ASSET, List.of(VERIFIED), List.of(), Map.of())).hasSize(1);
        assertThat(DeadLetterEvidence.outstanding(ASSET, List.of(VERIFIED), List.of(object("primary", "a", "f-gone")),
                Map.of())).as("a full-read event the ledger cannot place").hasSize(1);
    }

    @Test
    void onlyTheAssetsOwnDeadLettersOnEvidenceTopicsCountInLedgerOrder() {
        DeadLetterEvidence.Row other = new DeadLetterEvidence.Row("dlq:o", "checkpoint/exp/run1/000000000200",
                "object.verified.dlq", null, 11, false);
        DeadLetterEvidence.Row notEvidence = new DeadLetterEvidence.Row("dlq:r", ASSET, "volume.release.requested.dlq", null, 12, false);
        DeadLetterEvidence.Row uploaded = new DeadLetterEvidence.Row("dlq:u", ASSET, "object.uploaded.dlq", "x", 3, false);

        assertThat(DeadLetterEvidence.outstanding(ASSET, List.of(VERIFIED, other, notEvidence, uploaded), List.of(), Map.of()))
                .extracting(DeadLetterNote::eventId).containsExactly("dlq:u", "dlq:v-1");
    }

    @Test
    void aDeadLetteredCopyOfAnEventTheLedgerStoredLostNothing() {
        // the uploader dead-letters a checkpoint.published whose files changed: the ledger has the event itself
        DeadLetterEvidence.Row copy = new DeadLetterEvidence.Row("dlq:pub-1", ASSET, "checkpoint.published.dlq",
                "file changed since publish", 20, true);
        assertThat(DeadLetterEvidence.outstanding(ASSET, List.of(copy), List.of(), Map.of())).isEmpty();
        assertThat(DeadLetterEvidence.originalId("dlq:pub-1")).isEqualTo("pub-1");
        assertThat(DeadLetterEvidence.originalId("dlq:object.verified.dlq:0:7")).isEqualTo("object.verified.dlq:0:7");
        assertThat(DeadLetterEvidence.originalId("pub-1")).isNull();
    }
}
