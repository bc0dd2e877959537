package io.stowage.provideradapter.persistence;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The journal of executed decisions on a real temporary directory: durable, append-only, survives a torn line. */
class FileDecisionJournalTest {
    @TempDir
    Path tmp;

    @Test
    void aRecordedDecisionIsKnownAfterReopening() throws IOException {
        Path state = tmp.resolve("state/provider-adapter");
        FileDecisionJournal journal = FileDecisionJournal.open(state);
        journal.record("e1");
        journal.record("e2");

        FileDecisionJournal reopened = FileDecisionJournal.open(state);

        assertThat(reopened.executed("e1")).isTrue();
        assertThat(reopened.executed("e2")).isTrue();
        assertThat(reopened.executed("e3")).isFalse();
        assertThat(reopened.size()).isEqualTo(2);
        assertThat(state.resolve(FileDecisionJournal.FILE_NAME)).hasContent("e1\ne2\n");
    }

    @Test
    void aLineTornByACrashIsClosedAndTheNextIdStaysOnItsOwnLine() throws IOException {
        Files.writeString(tmp.resolve(FileDecisionJournal.FILE_NAME), "e1\ne2-tor");

        FileDecisionJournal journal = FileDecisionJournal.open(tmp);
        journal.record("e3");

        assertThat(tmp.resolve(FileDecisionJournal.FILE_NAME)).hasContent("e1\ne2-tor\ne3\n");
        assertThat(FileDecisionJournal.open(tmp).executed("e3")).isTrue();
        assertThat(journal.executed("e2")).isFalse();
    }

    @Test
    void anIdThatIsNotOneLineIsRefusedAndNotWritten() throws IOException {
        FileDecisionJournal journal = FileDecisionJournal.open(tmp);

        assertThatThrownBy(() -> journal.record("e1\ne2")).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> journal.record(" ")).isInstanceOf(IOException.class);

        assertThat(journal.executed("e1")).isFalse();
        assertThat(tmp.resolve(FileDecisionJournal.FILE_NAME)).doesNotExist();
    }

    @Test
    void aStateDirThatIsAFileCannotBeOpened() throws IOException {
        Path file = Files.writeString(tmp.resolve("not-a-dir"), "x");

        assertThatThrownBy(() -> FileDecisionJournal.open(file)).isInstanceOf(IOException.class);
        assertThat(file).hasContent("x");
    }
}
