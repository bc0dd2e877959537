package io.stowage.uploader.domain;

import io.stowage.events.ArchivePublished;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class ArchivePlannerTest {
    static final String A = "a".repeat(64);

    @Test
    void anArchiveGoesToThePrimaryStoreUnderLedgerArchivesAtItsSha256() {
        ArchivePublished archive = ArchivePublished.of(
                new EventMeta("e-1", 1, Instant.parse("2026-11-30T00:00:00Z"), "archive/run/exp/run-1", null),
                "run/exp/run-1", "/staging/archives/" + A + ".jsonl.zst", 4321, A, 17, 3, 90, "b".repeat(64));

        assertThat(ArchivePlanner.forArchive(archive)).isEqualTo(new UploadTask("primary",
                "ledger/archives/run/exp/run-1/" + A + ".jsonl.zst", ObjectKind.ARCHIVE,
                Path.of("/staging/archives/" + A + ".jsonl.zst"), 4321, A));
        assertThat(archive.assetId()).isEqualTo("archive/run/exp/run-1");
    }
}
