package io.stowage.cli.store;

import io.stowage.store.PresignPolicy;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The presign rules: at most 7 days (604,800 s), only allowlisted prefixes, no foldable key. */
class PresignPolicyTest {

    @Test
    void lifetimesUpToSevenDaysAreRead() {
        assertThat(io.stowage.cli.command.PresignCommand.expiry("24h")).isEqualTo(Duration.ofSeconds(86_400));
        assertThat(io.stowage.cli.command.PresignCommand.expiry("90m")).isEqualTo(Duration.ofSeconds(5_400));
        assertThat(io.stowage.cli.command.PresignCommand.expiry("7d")).isEqualTo(Duration.ofSeconds(604_800));
        assertThat(io.stowage.cli.command.PresignCommand.expiry("604800s")).isEqualTo(Duration.ofSeconds(604_800));
        assertThat(io.stowage.cli.command.PresignCommand.expiry("PT1H")).isEqualTo(Duration.ofSeconds(3_600));
    }

    @Test
    void longerThanSevenDaysIsRefusedWithOneLine() {
        assertThatThrownBy(() -> io.stowage.cli.command.PresignCommand.expiry("8d")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--expires '8d' is 691200 s; a presigned URL lives at most 7 days (604800 s)");
        assertThatThrownBy(() -> io.stowage.cli.command.PresignCommand.expiry("604801s")).hasMessageContaining("604801 s");
        assertThatThrownBy(() -> io.stowage.cli.command.PresignCommand.expiry("169h")).hasMessageContaining("608400 s");
    }

    @Test
    void zeroNegativeFractionalAndUnreadableLifetimesAreRefused() {
        assertThatThrownBy(() -> io.stowage.cli.command.PresignCommand.expiry("0s")).hasMessageContaining("above zero");
        assertThatThrownBy(() -> io.stowage.cli.command.PresignCommand.expiry("-PT1H")).hasMessageContaining("is negative");
        assertThatThrownBy(() -> io.stowage.cli.command.PresignCommand.expiry("PT0.5S")).hasMessageContaining("whole number");
        assertThatThrownBy(() -> io.stowage.cli.command.PresignCommand.expiry("a week")).hasMessageContaining("is not a duration");
    }

    @Test
    void onlyKeysUnderAnAllowedPrefixPass() {
        PresignPolicy policy = PresignPolicy.of(null, List.of());

        assertThat(policy.allowedPrefixes()).containsExactly("models/");
        assertThat(policy.refusal("models/m1/r1/abc/weights.bin")).isNull();
        assertThat(policy.refusal("datasets/d/r/shard-00000.tar.zst")).contains("outside the prefixes allowed");
        assertThat(policy.refusal("models/")).contains("empty");
        assertThat(policy.refusal("modelsx/a")).contains("outside");
    }

    @Test
    void keysAClientCouldFoldAreRefusedEvenUnderModels() {
        PresignPolicy policy = PresignPolicy.of(null, List.of());

        assertThat(policy.refusal("models/../datasets/d/r/x")).contains("'.' and '..' are not names");
        assertThat(policy.refusal("models//x")).contains("empty");
        assertThat(policy.refusal("models/a b")).contains("not allowed");
    }

    @Test
    void environmentAndFlagsExtendTheAllowlist() {
        PresignPolicy policy = PresignPolicy.of(" ledger/archives , exports/", List.of("checkpoints/"));

        assertThat(policy.allowedPrefixes()).containsExactly("models/", "checkpoints/", "ledger/archives/", "exports/");
        assertThat(policy.refusal("checkpoints/e/r/latest.json")).isNull();
        assertThat(policy.refusal("ledger/archives/run/e/r/x.jsonl.zst")).isNull();
        assertThatThrownBy(() -> PresignPolicy.of(null, List.of("../"))).hasMessageContaining("allowed prefix '../'");
    }

    @Test
    void aMalformedKeyIsBadInputWhateverTheAllowlistAWellFormedOneIsNot() {
        assertThat(PresignPolicy.keyProblem("")).contains("empty");
        assertThat(PresignPolicy.keyProblem("../etc/passwd")).contains("'.' and '..' are not names");
        assertThat(PresignPolicy.keyProblem("models/a b")).contains("not allowed");
        assertThat(PresignPolicy.keyProblem("datasets/d/r/shard-00000.tar.zst")).isNull();
        assertThat(PresignPolicy.keyProblem("models/m1/r1/abc/weights.bin")).isNull();
    }
}
