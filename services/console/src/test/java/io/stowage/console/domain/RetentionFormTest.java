package io.stowage.console.domain;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The retention form's rules reach the provider-adapter as typed, only the ones set, and a malformed one is named. */
class RetentionFormTest {
    @Test
    void onlyTheRulesSetAreSentWithCountsAsNumbers() {
        RetentionForm form = new RetentionForm(" 2 ", "1", "val_loss", "MIN", "", null, "P7D");

        assertThat(form.empty()).isFalse();
        assertThat(form.policy()).containsExactly(Map.entry("keepLast", 2), Map.entry("keepBest", 1),
                Map.entry("metric", "val_loss"), Map.entry("mode", "min"), Map.entry("temporaryTtl", "P7D"));
        assertThat(form.query()).isEqualTo("keepLast=2&keepBest=1&metric=val_loss&mode=MIN&temporaryTtl=P7D");
    }

    @Test
    void shortDurationsBecomeIso8601AndIsoStaysAsTyped() {
        assertThat(new RetentionForm(null, null, null, null, null, "6h", "7d").policy())
                .containsExactly(Map.entry("keepInterval", "PT6H"), Map.entry("temporaryTtl", "PT168H"));
        assertThat(new RetentionForm(null, null, null, null, null, "PT6H", "P7D").policy())
                .containsExactly(Map.entry("keepInterval", "PT6H"), Map.entry("temporaryTtl", "P7D"));
        assertThat(new RetentionForm(null, null, null, null, null, "a day", null).policy())
                .as("left for the provider-adapter to refuse, naming the field").containsEntry("keepInterval", "a day");
    }

    @Test
    void blankFieldsAreNoRuleAndNoRuleIsAnEmptyForm() {
        RetentionForm form = new RetentionForm("", " ", null, null, "", "", "");
        assertThat(form.empty()).isTrue();
        assertThat(form.policy()).isEmpty();
        assertThat(form.query()).isEmpty();
    }

    @Test
    void aMalformedRuleIsRefusedNamingItsField() {
        assertThatThrownBy(() -> new RetentionForm("two", null, null, null, null, null, null).policy())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("keepLast must be a whole number, not 'two'");
        assertThatThrownBy(() -> new RetentionForm("-1", null, null, null, null, null, null).policy())
                .hasMessage("keepLast must be at least 0, not -1");
        assertThatThrownBy(() -> new RetentionForm(null, null, null, null, "0", null, null).policy())
                .hasMessage("keepEvery must be at least 1, not 0");
        assertThatThrownBy(() -> new RetentionForm(null, "1", "loss", "lowest", null, null, null).policy())
                .hasMessage("mode must be min or max, not 'lowest'");
        assertThatThrownBy(() -> new RetentionForm("99999999999", null, null, null, null, null, null).policy())
                .hasMessageContaining("whole number");
    }
}
