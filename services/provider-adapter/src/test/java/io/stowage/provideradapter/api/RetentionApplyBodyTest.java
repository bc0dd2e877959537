package io.stowage.provideradapter.api;

import io.stowage.cli.retention.RetentionPlan;
import io.stowage.cli.retention.domain.RetentionPolicy;
import io.stowage.events.RetentionDecided;
import io.stowage.cli.retention.domain.RetentionPolicies;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The apply body is read strictly: every rule the command line sent reaches the rules, and a field this service does
 * not know refuses the apply instead of being dropped (dropping a keep rule would expire more than the plan).
 */
class RetentionApplyBodyTest {
    private static byte[] json(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void everyRuleOfTheBodyReachesThePolicy() {
        RetentionResource.ApplyBody body = RetentionResource.parseApply(json("{\"experiment\":\"e\",\"run\":\"r\","
                + "\"policy\":{\"keepLast\":2,\"keepBest\":1,\"metric\":\"val_loss\",\"mode\":\"min\",\"keepEvery\":100,"
                + "\"keepInterval\":\"PT6H\",\"temporaryTtl\":\"P7D\",\"tagsPin\":false}}"));

        RetentionPolicy policy = RetentionPolicies.of(body.policy());

        assertThat(policy).isEqualTo(new RetentionPolicy(2, 1, "val_loss", RetentionPolicy.Mode.MIN, 100,
                Duration.ofHours(6), Duration.ofDays(7), false));
        // and back: the event records the same rules (durations in Duration's own ISO-8601 form, P7D as PT168H)
        assertThat(RetentionPolicies.of(RetentionPolicies.fields(policy))).isEqualTo(policy);
        assertThat(RetentionPolicies.fields(policy).keepInterval()).isEqualTo("PT6H");
    }

    @Test
    void aFieldThisServiceDoesNotKnowRefusesTheApply() {
        assertThatThrownBy(() -> RetentionResource.parseApply(json("{\"experiment\":\"e\",\"run\":\"r\","
                + "\"policy\":{\"keepLast\":2,\"keepPerWeek\":1}}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown field 'keepPerWeek'")
                .hasMessageContaining("nothing deleted");
        assertThatThrownBy(() -> RetentionResource.parseApply(json("{\"experiment\":\"e\",\"run\":\"r\",\"dryRun\":true}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown field 'dryRun'");
        assertThatThrownBy(() -> RetentionResource.parseApply(json("{\"experiment\":")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a retention apply body");
        assertThatThrownBy(() -> RetentionPolicies.of(new RetentionDecided.Policy(1, null, null, null, null, "6h", null, null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keepInterval");
    }

    @Test
    void theConfirmedStepsTravelWithTheBodyAndAnExpiredStepOutsideThemIsNamed() {
        RetentionResource.ApplyBody body = RetentionResource.parseApply(json("{\"experiment\":\"e\",\"run\":\"r\","
                + "\"policy\":{\"keepLast\":1},\"expectExpire\":[50,100]}"));
        assertThat(body.expectExpire()).containsExactly(50L, 100L);
        assertThat(RetentionResource.parseApply(json("{\"experiment\":\"e\",\"run\":\"r\"}")).expectExpire()).isNull();

        RetentionPlan plan = new RetentionPlan("e", "r", Map.of(), 150L, Instant.EPOCH, List.of(step(50, "expire"),
                step(100, "expire"), step(120, "expire"), step(150, "keep")), Map.of(), null);
        assertThat(RetentionResource.unconfirmed(plan, List.of(50L, 100L))).as("120 was not in the confirmed plan")
                .containsExactly(120L);
        assertThat(RetentionResource.unconfirmed(plan, List.of(50L, 100L, 120L))).isEmpty();
        assertThat(RetentionResource.unconfirmed(plan, List.of())).containsExactly(50L, 100L, 120L);
        // fewer expired than confirmed (a step leased since) stays within the confirmation
        assertThat(RetentionResource.unconfirmed(plan, List.of(50L, 100L, 120L, 150L))).isEmpty();
    }

    private static RetentionPlan.Step step(long step, String decision) {
        return new RetentionPlan.Step(step, decision, List.of(), true, Map.of(), List.of(), false, Map.of());
    }
}
