package io.stowage.provideradapter.persistence;

import io.stowage.events.ConditionResult;
import io.stowage.events.DirectoryInventory;
import io.stowage.events.EventMeta;
import io.stowage.events.GatePassed;
import io.stowage.events.InventoryEntry;
import io.stowage.events.VolumeReleased;
import io.stowage.provideradapter.domain.ReleaseEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The release journal on a real temporary directory: every state survives reopening; a torn write is ignored. */
class FileReleaseJournalTest {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path tmp;

    static GatePassed decision(String requestId) {
        List<ConditionResult> conditions = IntStream.rangeClosed(1, 5).mapToObj(i -> new ConditionResult(i,
                ConditionResult.NAMES.get(i - 1), true, "held", List.of("ev-" + i))).toList();
        return GatePassed.of(EventMeta.first(requestId, CLOCK), requestId, "/vol/data/x", false, List.of("dataset/x/r1"),
                "f".repeat(64), conditions, DirectoryInventory.of(List.of(new InventoryEntry("a.bin", 3, "1".repeat(64)))));
    }

    @Test
    void eachStateAndItsOutcomeAreKnownAfterReopening() throws IOException {
        FileReleaseJournal journal = FileReleaseJournal.open(tmp.resolve("state"));
        GatePassed gate = decision("req-1");
        ReleaseEntry approved = ReleaseEntry.approved(gate, CLOCK.instant());
        journal.save(approved);
        ReleaseEntry deleting = approved.deleting("/vol/data/.stowage-releasing-req-1", CLOCK.instant());
        journal.save(deleting);
        assertThat(FileReleaseJournal.open(tmp.resolve("state")).entry("req-1")).contains(deleting);

        VolumeReleased outcome = VolumeReleased.of(EventMeta.causedBy(gate, CLOCK), "req-1", gate.path(), "local", 1, 3);
        journal.save(deleting.done(outcome, CLOCK.instant()));
        FileReleaseJournal reopened = FileReleaseJournal.open(tmp.resolve("state"));

        ReleaseEntry done = reopened.entry("req-1").orElseThrow();
        assertThat(done.state()).isEqualTo(ReleaseEntry.State.DONE);
        assertThat(done.outcome()).isEqualTo(outcome);
        assertThat(done.decision()).isEqualTo(gate);
        assertThat(done.unsent()).isTrue();
        assertThat(reopened.entries()).containsExactly(done);
        assertThat(tmp.resolve("state/releases/req-1.json")).exists();
    }

    @Test
    void aTornWriteLeavesThePreviousStateAndARequestIdThatIsNoFileNameIsHashed() throws IOException {
        FileReleaseJournal journal = FileReleaseJournal.open(tmp);
        ReleaseEntry approved = ReleaseEntry.approved(decision("../../etc/passwd"), CLOCK.instant());
        journal.save(approved);
        try (var files = Files.list(tmp.resolve("releases"))) {
            assertThat(files.map(p -> p.getFileName().toString()).toList()).singleElement().asString()
                    .matches("sha256-[0-9a-f]{64}\\.json");
        }
        Files.writeString(tmp.resolve("releases/req-2.json.tmp"), "{\"requestId\":\"req-2\",\"sta");

        FileReleaseJournal reopened = FileReleaseJournal.open(tmp);

        assertThat(reopened.entries()).containsExactly(approved);
        assertThat(tmp.resolve("releases/req-2.json.tmp")).doesNotExist();
    }

    @Test
    void aStateDirThatIsAFileCannotBeOpened() throws IOException {
        Path file = Files.writeString(tmp.resolve("not-a-dir"), "x");

        assertThatThrownBy(() -> FileReleaseJournal.open(file)).isInstanceOf(IOException.class);
        assertThat(file).hasContent("x");
    }
}
