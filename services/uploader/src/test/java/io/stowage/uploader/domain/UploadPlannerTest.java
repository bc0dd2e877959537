package io.stowage.uploader.domain;

import io.stowage.events.BaselineArchived;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.DatasetSealed;
import io.stowage.events.EventMeta;
import io.stowage.events.ModelPublished;
import io.stowage.events.ObjectKind;
import io.stowage.events.Provenance;
import io.stowage.events.ShardBuilt;
import io.stowage.events.manifest.CheckpointManifest;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.events.manifest.ModelManifest;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static io.stowage.events.fixtures.BaselineArchivedBuilder.baselineArchived;
import static io.stowage.events.fixtures.ShardBuiltBuilder.shardBuilt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UploadPlannerTest {
    static final String A = "a".repeat(64);
    static final String B = "b".repeat(64);
    static final String C = "c".repeat(64);
    static final EventMeta META = new EventMeta("e-1", 1, Instant.parse("2026-11-30T00:00:00Z"), "flow-1", null);
    static final Provenance PROVENANCE = new Provenance("abc123", C, A);

    @Test
    void aShardGoesUpWithItsMemberManifestAddressedByTheShardsSha256() {
        ShardBuilt shard = shardBuilt().meta(META).shard("/staging/s0.tar.zst", 1000, A)
                .members("/staging/s0.members.jsonl", 120, B).build();

        assertThat(UploadPlanner.forShard(shard)).containsExactly(
                new UploadTask("primary", "datasets/speech/r1/shards/" + A + ".tar.zst", ObjectKind.SHARD,
                        Path.of("/staging/s0.tar.zst"), 1000, A),
                new UploadTask("primary", "datasets/speech/r1/shards/" + A + ".members.jsonl", ObjectKind.MEMBERS,
                        Path.of("/staging/s0.members.jsonl"), 120, B));
    }

    @Test
    void aSealedDatasetUploadsItsManifest() {
        DatasetSealed sealed = DatasetSealed.of(META, "speech", "r1", "/data/speech", "/staging/manifest.json", 77, C,
                1, 3, 3000, "CC-BY-4.0", null);

        assertThat(UploadPlanner.forDataset(sealed)).containsExactly(new UploadTask("primary",
                "datasets/speech/r1/manifest.json", ObjectKind.DATASET_MANIFEST, Path.of("/staging/manifest.json"), 77, C));
    }

    @Test
    void aBaselineArchiveGoesUpAsAShardWithItsMemberManifestUnderArchivesBaselines() {
        BaselineArchived archived = baselineArchived().meta(META).archive("/staging/a.tar.zst", 1000, A)
                .members("/staging/a.members.jsonl", 120, B).manifest("/staging/a.manifest.json", 300, C).build();

        assertThat(UploadPlanner.forBaseline(archived)).containsExactly(
                new UploadTask("primary", "archives/baselines/whisper-tiny/baseline-1/" + A + ".tar.zst", ObjectKind.SHARD,
                        Path.of("/staging/a.tar.zst"), 1000, A),
                new UploadTask("primary", "archives/baselines/whisper-tiny/baseline-1/" + A + ".members.jsonl",
                        ObjectKind.MEMBERS, Path.of("/staging/a.members.jsonl"), 120, B));
    }

    @Test
    void aKeyCheckpointGoesToBothStoresFileByFile() {
        CheckpointPublished published = checkpoint(true);
        List<UploadTask> tasks = UploadPlanner.forCheckpoint(published, manifest(List.of(
                new MemberEntry("model.pt", 10, A), new MemberEntry("optim/state.pt", 20, B))));

        String step = "checkpoints/exp/run1/000000000042/";
        assertThat(tasks).extracting(UploadTask::store, UploadTask::key, UploadTask::localPath, UploadTask::bytes)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("primary", step + A + "/model.pt", Path.of("/ckpt/42/model.pt"), 10L),
                        org.assertj.core.groups.Tuple.tuple("primary", step + B + "/optim/state.pt", Path.of("/ckpt/42/optim/state.pt"), 20L),
                        org.assertj.core.groups.Tuple.tuple("replica", step + A + "/model.pt", Path.of("/ckpt/42/model.pt"), 10L),
                        org.assertj.core.groups.Tuple.tuple("replica", step + B + "/optim/state.pt", Path.of("/ckpt/42/optim/state.pt"), 20L));
        assertThat(tasks).allSatisfy(t -> assertThat(t.kind()).isEqualTo(ObjectKind.CHECKPOINT_FILE));
    }

    @Test
    void anOrdinaryCheckpointGoesToThePrimaryStoreOnly() {
        List<UploadTask> tasks = UploadPlanner.forCheckpoint(checkpoint(false),
                manifest(List.of(new MemberEntry("model.pt", 10, A))));
        assertThat(tasks).extracting(UploadTask::store).containsExactly("primary");
    }

    @Test
    void refusesAManifestOfAnotherStepOrAPathLeavingTheStepDirectory() {
        CheckpointManifest otherStep = new CheckpointManifest(CheckpointManifest.FORMAT, "exp", "run1", 41, "/ckpt/42",
                false, List.of(), PROVENANCE, List.of());
        assertThatThrownBy(() -> UploadPlanner.forCheckpoint(checkpoint(false), otherStep))
                .isInstanceOf(PlanRefusedException.class).hasMessageContaining("does not describe step");

        CheckpointManifest escaping = manifest(List.of(new MemberEntry("../secrets.txt", 1, A)));
        assertThatThrownBy(() -> UploadPlanner.forCheckpoint(checkpoint(false), escaping))
                .isInstanceOfSatisfying(PlanRefusedException.class, e -> {
                    assertThat(e.getMessage()).contains("../secrets.txt");
                    assertThat(e.localPath()).isEqualTo("/staging/ckpt-42.json");
                });
    }

    static CheckpointPublished checkpoint(boolean key) {
        return CheckpointPublished.of(META, "exp", "run1", 42, "/ckpt/42", "/staging/ckpt-42.json", C, 2, 30, key,
                List.of(), PROVENANCE);
    }

    static CheckpointManifest manifest(List<MemberEntry> files) {
        return new CheckpointManifest(CheckpointManifest.FORMAT, "exp", "run1", 42, "/ckpt/42", false, List.of(),
                PROVENANCE, files);
    }

    @Test
    void aModelRevisionGoesUpFileByFileAtItsContentAddressesThenItsManifestLast() {
        ModelPublished event = ModelPublished.of(META, "en-us", "r1", "/hot/en-us", "/staging/models/en-us/r1/m.json",
                300, C, 2, 30, "BSD-2-Clause", "debian", null);
        ModelManifest manifest = new ModelManifest(ModelManifest.FORMAT, "en-us", "r1", "BSD-2-Clause", "debian", null,
                null, List.of(new MemberEntry("en-us/mdef", 10, A), new MemberEntry("lm.bin", 20, B)));

        assertThat(UploadPlanner.forModel(event, manifest)).containsExactly(
                new UploadTask("primary", "models/en-us/r1/" + A + "/en-us/mdef", ObjectKind.MODEL_FILE,
                        Path.of("/hot/en-us/en-us/mdef"), 10, A),
                new UploadTask("primary", "models/en-us/r1/" + B + "/lm.bin", ObjectKind.MODEL_FILE,
                        Path.of("/hot/en-us/lm.bin"), 20, B),
                new UploadTask("primary", "models/en-us/r1/manifest.json", ObjectKind.MODEL_MANIFEST,
                        Path.of("/staging/models/en-us/r1/m.json"), 300, C));
    }

    @Test
    void aModelManifestOfAnotherRevisionOrWithAnEscapingPathIsRefused() {
        ModelPublished event = ModelPublished.of(META, "en-us", "r1", "/hot/en-us", "/staging/m.json", 300, C, 1, 10,
                "BSD-2-Clause", "debian", null);
        ModelManifest other = new ModelManifest(ModelManifest.FORMAT, "en-us", "r2", "BSD-2-Clause", "debian", null,
                null, List.of(new MemberEntry("a", 10, A)));
        assertThatThrownBy(() -> UploadPlanner.forModel(event, other)).isInstanceOf(PlanRefusedException.class)
                .hasMessageContaining("does not describe model/en-us/r1");
        ModelManifest escaping = new ModelManifest(ModelManifest.FORMAT, "en-us", "r1", "BSD-2-Clause", "debian", null,
                null, List.of(new MemberEntry("../../etc/passwd", 10, A)));
        assertThatThrownBy(() -> UploadPlanner.forModel(event, escaping)).isInstanceOf(PlanRefusedException.class)
                .hasMessageContaining("cannot be stored");
    }
}
