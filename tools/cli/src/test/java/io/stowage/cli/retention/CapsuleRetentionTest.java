package io.stowage.cli.retention;

import io.stowage.cli.CliException;
import io.stowage.cli.retention.domain.RetentionPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CapsuleRetentionTest {
    @TempDir
    Path run;

    @Test
    void theCapsulesRetentionIsReadAndTheCommandLineOverridesItFieldByField() throws Exception {
        Files.writeString(run.resolve("experiment.json"), "{\"codeCommit\":\"abc\",\"retention\":{\"keepLast\":3,"
                + "\"keepBest\":1,\"metric\":\"val_loss\",\"mode\":\"min\",\"keepInterval\":\"PT6H\",\"temporaryTtl\":\"P7D\"}}");

        RetentionPolicy capsule = CapsuleRetention.read(run);
        assertThat(capsule).isEqualTo(new RetentionPolicy(3, 1, "val_loss", RetentionPolicy.Mode.MIN, null,
                Duration.ofHours(6), Duration.ofDays(7), null));
        RetentionPolicy merged = capsule.with(new RetentionPolicy(2, null, null, null, 100, Duration.ofDays(1), null, null));
        assertThat(merged).isEqualTo(new RetentionPolicy(2, 1, "val_loss", RetentionPolicy.Mode.MIN, 100,
                Duration.ofDays(1), Duration.ofDays(7), null));
    }

    @Test
    void noCapsuleOrNoKeyIsNoPolicyAndATypoIsRefused() throws Exception {
        assertThat(CapsuleRetention.read(run)).isEqualTo(RetentionPolicy.NONE);
        Files.writeString(run.resolve("experiment.json"), "{\"codeCommit\":\"abc\"}");
        assertThat(CapsuleRetention.read(run.resolve("experiment.json"))).isEqualTo(RetentionPolicy.NONE);
        Files.writeString(run.resolve("experiment.json"), "{\"retention\":{\"keep_last\":3}}");
        assertThatThrownBy(() -> CapsuleRetention.read(run)).isInstanceOf(CliException.class)
                .hasMessageContaining("unknown retention field 'keep_last'");
        Files.writeString(run.resolve("experiment.json"), "{\"retention\":{\"keepBest\":2}}");
        assertThatThrownBy(() -> CapsuleRetention.read(run)).isInstanceOf(CliException.class).hasMessageContaining("metric");
        Files.writeString(run.resolve("experiment.json"), "{\"retention\":{\"keepLast\":\"3\"}}");
        assertThatThrownBy(() -> CapsuleRetention.read(run)).isInstanceOf(CliException.class).hasMessageContaining("whole number");
        Files.writeString(run.resolve("experiment.json"), "{\"retention\":{\"keepInterval\":\"PT0S\"}}");
        assertThatThrownBy(() -> CapsuleRetention.read(run)).isInstanceOf(CliException.class)
                .hasMessageContaining("keepInterval must be at least 1 second");
        Files.writeString(run.resolve("experiment.json"), "{\"retention\":{\"coldAfter\":\"P30D\",\"coldStorageClass\":\"ia\"}}");
        assertThatThrownBy(() -> CapsuleRetention.read(run)).isInstanceOf(CliException.class)
                .hasMessageContaining("coldStorageClass must be an S3 storage class");
        Files.writeString(run.resolve("experiment.json"), "{\"retention\":{\"keepLast\":2,\"coldAfter\":\"P30D\"}}");
        assertThat(CapsuleRetention.read(run).coldClass()).isEqualTo("STANDARD_IA");
        assertThat(CapsuleRetention.read(run).coldAfter()).isEqualTo(Duration.ofDays(30));
        Files.writeString(run.resolve("experiment.json"), "{\"retention\":{\"keepInterval\":\"6h\"}}");
        assertThatThrownBy(() -> CapsuleRetention.read(run)).isInstanceOf(CliException.class)
                .hasMessageContaining("retention: keepInterval '6h' is not an ISO-8601 duration (e.g. \"PT6H\"");
    }
}
