package io.stowage.uploader.domain;

import io.stowage.events.ArchivePublished;
import io.stowage.events.ObjectKind;

import java.nio.file.Path;

/**
 * Decides what to upload for a milestone archive: consumes an {@link ArchivePublished} and produces one
 * {@link UploadTask}, the {@code .jsonl.zst} file at {@code ledger/archives/<asset>/<sha256>.jsonl.zst} in the primary
 * store, with the size and SHA-256 the event names. Pure: no file or store access.
 */
public final class ArchivePlanner {
    private ArchivePlanner() {
    }

    /** @return the archive file in the primary store */
    public static UploadTask forArchive(ArchivePublished e) {
        return new UploadTask(UploadTask.PRIMARY, e.key(), ObjectKind.ARCHIVE, Path.of(e.archivePath()), e.bytes(),
                e.sha256());
    }
}
