package io.stowage.cli.model;

import io.stowage.cli.CliException;
import io.stowage.cli.checkpoint.StoredCheckpoint;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** A promotion takes exactly the files the ledger recorded for the step: a missing or an unrecorded one refuses it. */
class PromotedFilesTest {
    static final String A = "checkpoints/e/r/000000000100/" + "a".repeat(64) + "/model.bin";
    static final String B = "checkpoints/e/r/000000000100/" + "b".repeat(64) + "/optimizer.pt";
    static final String C = "checkpoints/e/r/000000000100/" + "c".repeat(64) + "/stray.bin";

    static StoredCheckpoint listed(String... keys) {
        return new StoredCheckpoint(100, java.util.Arrays.stream(keys)
                .map(k -> new StoredCheckpoint.StoredFile(k, k.split("/")[4], k.substring(k.lastIndexOf('/') + 1)))
                .toList());
    }

    static ModelPromoter.StepRecord recorded(String... keys) {
        return new ModelPromoter.StepRecord(null, "ev-1", Set.of(keys));
    }

    @Test
    void theSameFilesPass() {
        assertThatCode(() -> ModelPromoter.requireRecordedFiles("checkpoint/e/r/100", listed(A, B), recorded(A, B)))
                .doesNotThrowAnyException();
    }

    @Test
    void aRecordedFileGoneFromTheStoreRefusesNamingIt() {
        CliException e = catchThrowableOfType(CliException.class,
                () -> ModelPromoter.requireRecordedFiles("checkpoint/e/r/100", listed(A), recorded(A, B)));

        assertThat(e.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(e).hasMessageContaining("1 file(s) the ledger recorded are not in the primary store (" + B + ")")
                .hasMessageEndingWith("nothing promoted");
    }

    @Test
    void anObjectTheLedgerNeverRecordedRefusesNamingIt() {
        CliException e = catchThrowableOfType(CliException.class,
                () -> ModelPromoter.requireRecordedFiles("checkpoint/e/r/100", listed(A, B, C), recorded(A, B)));

        assertThat(e).hasMessageContaining("1 object(s) under the step the ledger never recorded (" + C + ")");
    }

    @Test
    void noRecordedFileAtAllRefuses() {
        assertThat(catchThrowableOfType(CliException.class,
                () -> ModelPromoter.requireRecordedFiles("checkpoint/e/r/100", listed(A), recorded())))
                .hasMessageContaining("the ledger records no stored file");
    }
}
