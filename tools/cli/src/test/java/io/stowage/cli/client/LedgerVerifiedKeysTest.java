package io.stowage.cli.client;

import io.stowage.cli.CliException;
import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A step published again with other content: the objects of the earlier publish are verified in the ledger, but
 * "every file uploaded and verified" may only be said once this publish's own objects are.
 */
class LedgerVerifiedKeysTest {
    private static final String OLD = "checkpoints/e/r/000000000002/" + "a".repeat(64) + "/model.bin";
    private static final String NEW = "checkpoints/e/r/000000000002/" + "b".repeat(64) + "/model.bin";
    private static final String PROVENANCE = "checkpoints/e/r/000000000002/" + "c".repeat(64) + "/provenance.json";

    @Test
    void objectsOfAnEarlierPublishOfTheSameStepAreNeverCountedForThisOne() {
        AssetEvidence asset = asset(List.of(
                object(OLD, VerifyResult.OK, VerifyResult.OK),
                object(PROVENANCE, VerifyResult.OK, VerifyResult.OK)));
        Set<String> expected = Set.of(LedgerClient.storeKey("primary", NEW), LedgerClient.storeKey("primary", PROVENANCE));

        // the asset holds as many verified objects as this publish expects, yet its large file is not even uploaded
        assertThat(asset.objects()).hasSize(expected.size());
        assertThat(LedgerClient.verifiedOf(asset, expected)).isEqualTo(1);
    }

    @Test
    void theExpectedObjectCountsOnceBothItsResultsAreIn() {
        Set<String> expected = Set.of(LedgerClient.storeKey("primary", NEW));

        assertThat(LedgerClient.verifiedOf(asset(List.of(object(NEW, VerifyResult.OK, null))), expected)).isZero();
        assertThat(LedgerClient.verifiedOf(asset(List.of(object(NEW, VerifyResult.OK, VerifyResult.OK))), expected))
                .isEqualTo(1);
        assertThat(LedgerClient.verifiedOf(asset(List.of(object(NEW, VerifyResult.OK, VerifyResult.OK))),
                Set.of(LedgerClient.storeKey("replica", NEW)))).as("another store's copy is another object").isZero();
    }

    @Test
    void aBadResultFailsOnlyForAnObjectOfThisPublish() {
        AssetEvidence asset = asset(List.of(object(OLD, VerifyResult.OK, VerifyResult.MISMATCH),
                object(NEW, VerifyResult.OK, VerifyResult.OK)));

        assertThat(LedgerClient.verifiedOf(asset, Set.of(LedgerClient.storeKey("primary", NEW)))).isEqualTo(1);
        assertThatThrownBy(() -> LedgerClient.verifiedOf(asset, Set.of(LedgerClient.storeKey("primary", OLD))))
                .isInstanceOf(CliException.class).hasMessageContaining("MISMATCH");
    }

    private static AssetEvidence asset(List<ObjectEvidence> objects) {
        return new AssetEvidence("checkpoint/e/r/000000000002", "checkpoint", "/hot/e/r/step-2", true, null, null,
                false, null, null, null, null, objects, List.of());
    }

    private static ObjectEvidence object(String key, VerifyResult head, VerifyResult fullRead) {
        return new ObjectEvidence("primary", "stowage-primary", key, ObjectKind.CHECKPOINT_FILE, 3, "0".repeat(64),
                "/hot/e/r/step-2/x", head, fullRead);
    }
}
