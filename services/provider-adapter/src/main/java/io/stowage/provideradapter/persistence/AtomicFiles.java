package io.stowage.provideradapter.persistence;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Whole-file replacement that a crash cannot tear, for the provider-adapter's journals and records. */
final class AtomicFiles {
    private AtomicFiles() {
    }

    /**
     * Writes {@code bytes} to {@code <target>.tmp}, fsyncs it, renames it over {@code target} (atomic move) and fsyncs
     * the directory, so that after a crash {@code target} holds the old or the new bytes, never part of either. A
     * leftover {@code .tmp} is the caller's to remove at open.
     *
     * @throws IOException when any step fails; {@code target} then still holds its previous bytes
     */
    static void replace(Path target, byte[] bytes) throws IOException {
        Path temp = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        syncDirectory(target.getParent());
    }

    /** fsyncs a directory, so that a rename or a deletion in it survives a crash. */
    static void syncDirectory(Path dir) throws IOException {
        try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
            directory.force(true);
        }
    }
}
