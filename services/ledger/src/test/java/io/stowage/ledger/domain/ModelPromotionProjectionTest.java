package io.stowage.ledger.domain;

import io.stowage.events.CheckpointPinned;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.EventMeta;
import io.stowage.events.ModelPublished;
import io.stowage.events.Provenance;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.stowage.ledger.domain.Events.SHA_A;
import static io.stowage.ledger.domain.Events.T0;
import static org.assertj.core.api.Assertions.assertThat;

class ModelPromotionProjectionTest {
    private static final String STEP = "checkpoint/exp/run1/000000000300";

    private static ModelPublished published(String revision, String fromCheckpoint, long second) {
        return ModelPublished.of(new EventMeta(UUID.randomUUID().toString(), 1, T0.plusSeconds(second), "model/tiny/" + revision,
                null), "tiny", revision, "/staging/models/tiny/" + revision + "/promoted", "/staging/m.json", 300, SHA_A, 1,
                10, "MIT", STEP, fromCheckpoint);
    }

    @Test
    void aRevisionPromotedFromAStepLinksToItAndTheFirstLinkStays() {
        ModelPublished first = published("r1", STEP, 0);
        ModelPromotionRecord link = ModelPromotionProjection.apply(null, first);
        assertThat(link).isEqualTo(new ModelPromotionRecord("model/tiny/r1", STEP, first.meta().eventId(), first.meta().time()));

        ModelPublished again = published("r1", STEP, 9);
        assertThat(ModelPromotionProjection.apply(link, again)).as("a revision never changes: the first link stays")
                .isSameAs(link);
    }

    @Test
    void aRevisionPublishedFromADirectoryHasNoLink() {
        assertThat(ModelPromotionProjection.apply(null, published("r2", null, 0))).isNull();
    }

    @Test
    void theReplayFoldRebuildsCheckpointStepsAndPromotionsAsTheLiveProjectionsDo() {
        CheckpointPublished step = CheckpointPublished.of(new EventMeta(UUID.randomUUID().toString(), 1, T0, STEP, null),
                "exp", "run1", 300, "/hot/300", "/stage/300.json", SHA_A, 1, 7, false, List.of("best"),
                new Provenance("abc", SHA_A, SHA_A), Map.of("val_loss", 0.42));
        CheckpointPinned pin = CheckpointPinned.of(new EventMeta(UUID.randomUUID().toString(), 1, T0.plusSeconds(1), STEP, null),
                "exp", "run1", 300, true, "ops");
        ModelPublished r1 = published("r1", STEP, 2);
        ModelPublished fromDir = published("r2", null, 3);

        ProjectionFold fold = new ProjectionFold();
        List.of(step, pin, r1, fromDir, r1).forEach(fold::apply);

        assertThat(fold.checkpointSteps()).containsExactly(
                CheckpointStepProjection.apply(CheckpointStepProjection.apply(null, step), pin));
        assertThat(fold.modelPromotions()).containsExactly(ModelPromotionProjection.apply(null, r1));
        assertThat(fold.unprojected()).isZero();
        assertThat(fold.duplicates()).isEqualTo(1);
    }
}
