package io.stowage.cli.command;

import io.stowage.cli.CliException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which asset {@code stowage audit archive --run E/R | --dataset NAME@REV} closes. */
class AuditArchiveCommandTest {
    @Test
    void anArchivedAssetIsARunOrADatasetRevision() {
        AuditArchiveCommand.Target run = new AuditArchiveCommand.Target();
        run.run = "speech-digits/run-1";
        assertThat(AuditArchiveCommand.archivedAsset(run)).isEqualTo("run/speech-digits/run-1");
        AuditArchiveCommand.Target dataset = new AuditArchiveCommand.Target();
        dataset.dataset = "speech@r1";
        assertThat(AuditArchiveCommand.archivedAsset(dataset)).isEqualTo("dataset/speech/r1");
        AuditArchiveCommand.Target bad = new AuditArchiveCommand.Target();
        bad.run = "speech-digits";
        assertThatThrownBy(() -> AuditArchiveCommand.archivedAsset(bad)).isInstanceOf(CliException.class)
                .extracting(e -> ((CliException) e).exitCode()).isEqualTo(CliException.USAGE);
    }
}
