package io.stowage.store.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The upload journals of one store ({@code <journalDir>/*.journal}, one per incomplete multipart upload this process
 * may still resume), read for the upload ids they own: the age-based abort never aborts an owned upload, however old.
 */
final class JournalDirectory {
    private final Path dir;

    JournalDirectory(Path dir) {
        this.dir = dir;
    }

    /**
     * Reads every journal now. A journal whose first line is torn names no upload (a resume starts a new one), so it
     * owns nothing.
     *
     * @return the upload ids the journals name; empty when the directory does not exist
     * @throws UncheckedIOException when the directory or a journal cannot be read: the caller must then abort nothing,
     *                              since it cannot tell which uploads are owned
     */
    Set<String> ownedUploadIds() {
        if (!Files.isDirectory(dir)) {
            return Set.of();
        }
        Set<String> owned = new HashSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(f -> f.getFileName().toString().endsWith(".journal"))
                    .forEach(f -> new UploadJournal(f).read().ifPresent(j -> owned.add(j.uploadId())));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list upload journals in " + dir + ": " + e.getMessage(), e);
        }
        return owned;
    }
}
