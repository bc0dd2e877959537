package io.stowage.cli.model;

import io.stowage.cli.CliException;
import io.stowage.cli.retention.domain.RetentionPolicy;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.stowage.cli.retention.domain.RetentionPolicy.Mode.MAX;
import static io.stowage.cli.retention.domain.RetentionPolicy.Mode.MIN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StepChoiceTest {
    private static StepChoice.Candidate verified(long step, Map<String, Double> metrics) {
        return new StepChoice.Candidate(step, true, metrics);
    }

    private static StepChoice.Candidate loss(long step, double value) {
        return verified(step, Map.of("val_loss", value, "acc", 1 - value));
    }

    @Test
    void minTakesTheLowestAndMaxTheHighestAmongVerifiedSteps() {
        // step 400 is the best by far but unverified: its upload or verification may still be running
        List<StepChoice.Candidate> steps = List.of(loss(100, 0.9), loss(200, 0.2), loss(300, 0.5),
                new StepChoice.Candidate(400, false, Map.of("val_loss", 0.01)));

        StepChoice.Choice min = StepChoice.best("e/r", steps, "val_loss", MIN);
        assertThat(min.step()).isEqualTo(200);
        assertThat(min.selector()).isEqualTo("best");
        assertThat(min.metric()).isEqualTo("val_loss");
        assertThat(min.value()).isEqualTo(0.2);
        assertThat(min.reason()).contains("lowest val_loss (0.2)").contains("among 3 verified step(s)");

        StepChoice.Choice max = StepChoice.best("e/r", steps, "val_loss", MAX);
        assertThat(max.step()).isEqualTo(100);
        assertThat(max.reason()).startsWith("highest val_loss (0.9)");
        assertThat(StepChoice.best("e/r", steps, "acc", MAX).step()).isEqualTo(200);
    }

    @Test
    void aTieGoesToTheNewestStepWhateverTheOrderGiven() {
        List<StepChoice.Candidate> steps = List.of(loss(300, 0.4), loss(100, 0.4), loss(200, 0.4), loss(50, 0.7));
        assertThat(StepChoice.best("e/r", steps, "val_loss", MIN).step()).isEqualTo(300);
        assertThat(StepChoice.best("e/r", List.of(loss(50, 0.7), loss(100, 0.7)), "val_loss", MAX).step()).isEqualTo(100);
    }

    @Test
    void stepsWithoutTheMetricOrWithNaNAreNotRanked() {
        List<StepChoice.Candidate> steps = List.of(verified(100, Map.of("acc", 0.3)), loss(200, 0.6),
                verified(300, Map.of("val_loss", Double.NaN)), verified(400, Map.of()));
        assertThat(StepChoice.best("e/r", steps, "val_loss", MIN).step()).isEqualTo(200);
        assertThat(StepChoice.best("e/r", steps, "val_loss", MAX).step()).isEqualTo(200);
    }

    @Test
    void noVerifiedStepWithTheMetricIsAnErrorNamingIt() {
        List<StepChoice.Candidate> steps = List.of(verified(100, Map.of("acc", 0.3)),
                new StepChoice.Candidate(200, false, Map.of("val_loss", 0.1)));
        assertThatThrownBy(() -> StepChoice.best("exp/run1", steps, "val_loss", RetentionPolicy.Mode.MIN))
                .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exitCode()).isEqualTo(CliException.FAILED))
                .hasMessageContaining("exp/run1").hasMessageContaining("'val_loss'")
                .hasMessageContaining("none of its 1 verified step(s) (of 2)");
        assertThatThrownBy(() -> StepChoice.best("exp/run1", List.of(), "val_loss", MIN))
                .isInstanceOf(CliException.class).hasMessageContaining("'val_loss'");
    }

    @Test
    void stepAndLatestSayWhichRuleChoseTheStep() {
        assertThat(StepChoice.step(150)).isEqualTo(new StepChoice.Choice(150, "step", "named by --step", null, null));
        assertThat(StepChoice.latest(400).selector()).isEqualTo("latest");
        assertThat(StepChoice.latest(400).reason()).contains("latest.json");
    }
}
