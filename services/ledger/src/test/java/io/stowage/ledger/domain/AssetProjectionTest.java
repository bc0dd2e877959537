package io.stowage.ledger.domain;

import io.stowage.events.BaselineArchived;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.DatasetSealed;
import io.stowage.events.Provenance;
import io.stowage.events.ShardBuilt;
import io.stowage.events.ledger.AssetEvidence;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.stowage.events.fixtures.BaselineArchivedBuilder.baselineArchived;
import static io.stowage.ledger.domain.Events.SHA_A;
import static io.stowage.ledger.domain.Events.SHA_B;
import static io.stowage.ledger.domain.Events.T0;
import static org.assertj.core.api.Assertions.assertThat;

class AssetProjectionTest {
    private static final ShardBuilt SHARD = ShardBuilt.of(Events.meta(T0), "speech", "r1", 0, "/data/speech",
            "/staging/speech/r1/00000.tar.zst", 1000, SHA_A, "/staging/speech/r1/00000.members.jsonl", 120, SHA_B,
            3, 2900);
    private static final DatasetSealed SEALED = DatasetSealed.of(Events.meta(T0.plusSeconds(1)), "speech", "r1",
            "/data/speech", "/staging/speech/r1/manifest.json", 400, SHA_B, 1, 3, 2900, "CC-BY-4.0", null);

    @Test
    void shardThenSealGivesASealedDatasetWithLicence() {
        AssetRecord a = AssetProjection.apply(AssetProjection.apply(null, SHARD), SEALED);

        assertThat(a).isEqualTo(new AssetRecord("dataset/speech/r1", "dataset", "/data/speech", true,
                "/staging/speech/r1/manifest.json", SHA_B, false, "r1", "CC-BY-4.0", null, null, null, null,
                SEALED.meta().eventId()));
    }

    @Test
    void aShardSeenAfterTheSealDoesNotUnsealIt() {
        AssetRecord a = AssetProjection.apply(AssetProjection.apply(null, SEALED), SHARD);

        assertThat(a.sealed()).isTrue();
        assertThat(a.manifestSha256()).isEqualTo(SHA_B);
        assertThat(a.license()).isEqualTo("CC-BY-4.0");
        assertThat(a.sealedEventId()).as("the seal stays the evidence of the metadata").isEqualTo(SEALED.meta().eventId());
    }

    @Test
    void aBaselineArchiveIsASealedAssetRootedAtTheArchivedDirectoryWithItsBaselineManifest() {
        String staged = "/staging/archives/baselines/whisper-tiny/baseline-1/" + SHA_A;
        BaselineArchived archived = baselineArchived().meta(Events.meta(T0)).archive(staged + ".tar.zst", 1000, SHA_A)
                .members(staged + ".members.jsonl", 120, SHA_B).manifest(staged + ".manifest.json", 400, SHA_B).build();

        AssetRecord a = AssetProjection.apply(null, archived);

        assertThat(a).isEqualTo(new AssetRecord("baseline/whisper-tiny/baseline-1", "baseline", "/hot/results", true,
                "/staging/archives/baselines/whisper-tiny/baseline-1/" + SHA_A + ".manifest.json", SHA_B, false,
                "baseline-1", null, null, null, null, null, archived.meta().eventId()));
    }

    @Test
    void checkpointCarriesKeyFlagAndProvenance() {
        CheckpointPublished published = CheckpointPublished.of(Events.meta(T0), "exp", "run1", 1200,
                "/ckpt/exp/run1/step-1200", "/staging/checkpoints/exp/run1/000000001200.json", SHA_A, 2, 5000,
                true, List.of("best"), new Provenance("abc123", SHA_A, SHA_B));

        AssetEvidence e = AssetProjection.apply(null, published).toEvidence(List.of(), List.of("boom"));

        assertThat(e.assetId()).isEqualTo("checkpoint/exp/run1/000000001200");
        assertThat(e.kind()).isEqualTo("checkpoint");
        assertThat(e.localRoot()).isEqualTo("/ckpt/exp/run1/step-1200");
        assertThat(e.keyCheckpoint()).isTrue();
        assertThat(e.sealed()).isTrue();
        assertThat(e.provenance()).isEqualTo(new Provenance("abc123", SHA_A, SHA_B));
        assertThat(e.uploadFailures()).containsExactly("boom");
    }
}
