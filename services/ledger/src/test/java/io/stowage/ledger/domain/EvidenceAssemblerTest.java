package io.stowage.ledger.domain;

import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.ReleaseEvidence;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.stowage.ledger.domain.Events.SHA_A;
import static io.stowage.ledger.domain.Events.T0;
import static org.assertj.core.api.Assertions.assertThat;

class EvidenceAssemblerTest {
    private static final AssetRecord SPEECH = asset("dataset/speech/r1", "/data/speech");
    private static final AssetRecord SPEECH2 = asset("dataset/speech2/r1", "/data/speech2");
    private static final AssetRecord DATA_ROOT = asset("dataset/all/r1", "/data");

    @Test
    void keepsOnlyTouchingAssetsEachWithItsOwnObjectsAndFailures() {
        List<ObjectRecord> objects = List.of(
                object("dataset/speech/r1", "replica", "k2"), object("dataset/speech/r1", "primary", "k9"),
                object("dataset/speech/r1", "primary", "k1"), object("dataset/speech2/r1", "primary", "x"));
        List<UploadFailureRecord> failures = List.of(
                failure("dataset/speech/r1", "second", 2), failure("dataset/speech/r1", "first", 1),
                failure("dataset/speech2/r1", "other", 0));

        ReleaseEvidence evidence = EvidenceAssembler.assemble(EvidenceScope.of("/data/speech/"),
                List.of(SPEECH2, SPEECH, DATA_ROOT), objects, failures);

        assertThat(evidence.path()).isEqualTo("/data/speech");
        assertThat(evidence.assets()).extracting(AssetEvidence::assetId)
                .containsExactly("dataset/all/r1", "dataset/speech/r1");
        AssetEvidence speech = evidence.assets().get(1);
        assertThat(speech.objects()).extracting(ObjectEvidence::store, ObjectEvidence::key)
                .containsExactly(tuple("primary", "k1"), tuple("primary", "k9"), tuple("replica", "k2"));
        assertThat(speech.uploadFailures()).containsExactly("first", "second");
        assertThat(evidence.assets().get(0).objects()).isEmpty();
    }

    private static org.assertj.core.groups.Tuple tuple(Object... values) {
        return org.assertj.core.groups.Tuple.tuple(values);
    }

    private static AssetRecord asset(String id, String root) {
        return new AssetRecord(id, "dataset", root, true, root + ".json", SHA_A, false, "r1", "MIT", null,
                null, null, null);
    }

    private static ObjectRecord object(String assetId, String store, String key) {
        return new ObjectRecord(store, "bucket", key, assetId, ObjectKind.SHARD, 10, SHA_A, "e", "/l", T0,
                VerifyResult.OK, T0, null, null);
    }

    private static UploadFailureRecord failure(String assetId, String reason, int seconds) {
        return new UploadFailureRecord("ev-" + reason, assetId, "primary", null, reason, false, T0.plusSeconds(seconds));
    }
}
