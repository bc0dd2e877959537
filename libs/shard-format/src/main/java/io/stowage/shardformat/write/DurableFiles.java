package io.stowage.shardformat.write;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * Writes files the crash-safe way: into a temporary file that is forced to disk on close, then
 * atomically renamed over the final name, and the directory forced so the rename survives too.
 */
public final class DurableFiles {
    private DurableFiles() {
    }

    /**
     * @param tmp a new file to create (fails if it exists)
     * @return a stream whose {@code close()} forces the content and metadata to disk before closing
     */
    public static OutputStream create(Path tmp) throws IOException {
        FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] buffer, int offset, int length) throws IOException {
                ByteBuffer source = ByteBuffer.wrap(buffer, offset, length);
                while (source.hasRemaining()) {
                    channel.write(source);
                }
            }

            @Override
            public void close() throws IOException {
                try (channel) {
                    channel.force(true);
                }
            }
        };
    }

    /**
     * @param prefix the start of the file name, e.g. the final name
     * @return a fresh name {@code <prefix>.<uuid>.tmp} in {@code dir} (unique, so that concurrent
     *         builds of the same revision never share a temporary file); the file is not created
     */
    public static Path temporaryName(Path dir, String prefix) {
        return dir.resolve(prefix + "." + UUID.randomUUID() + ".tmp");
    }

    /** Renames {@code tmp} to {@code target} atomically (replacing it) and forces the directory. */
    public static void publish(Path tmp, Path target) throws IOException {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel directory = FileChannel.open(target.getParent(), StandardOpenOption.READ)) {
            directory.force(true);
        }
    }

    /**
     * Writes small content durably under {@code target}'s name only when no file has that name: the new file is
     * written and fsynced under a temporary name and hard-linked to {@code target}, which fails atomically when
     * {@code target} exists (two writers racing: exactly one wins). Nothing is replaced.
     *
     * <p>On a filesystem without hard links (FUSE and SMB mounts, FAT: the link is refused as unsupported or not
     * permitted) it falls back to a move that refuses an existing {@code target}, then re-reads {@code target}: there
     * the existence check and the rename are two steps, so two writers racing within that window can both succeed,
     * the later one's bytes remaining; a writer that finds other bytes after its move fails as below.
     *
     * @return the file now under {@code target}: the one written, or the one found there when it holds the same bytes
     * @throws FileAlreadyExistsException when {@code target} holds other bytes (it is left as it was); its
     *                                    {@link FileAlreadyExistsException#getReason() reason} names their SHA-256
     * @throws IOException                when writing fails
     */
    public static WrittenFile writeNew(Path target, byte[] content) throws IOException {
        return writeNew(target, content, Files::createLink);
    }

    /** How {@link #writeNew(Path, byte[])} links the written temporary file to its final name (tests replace it). */
    @FunctionalInterface
    interface Linker {
        /** @see Files#createLink(Path, Path) */
        void link(Path target, Path existing) throws IOException;
    }

    static WrittenFile writeNew(Path target, byte[] content, Linker linker) throws IOException {
        Path tmp = temporaryName(target.getParent(), target.getFileName().toString());
        DigestingOutputStream out = new DigestingOutputStream(create(tmp));
        try {
            try (out) {
                out.write(content);
            }
            try {
                linker.link(target, tmp);
            } catch (FileAlreadyExistsException e) {
                requireSameBytes(target, content);
            } catch (UnsupportedOperationException | java.nio.file.FileSystemException e) {
                try {
                    Files.move(tmp, target);
                } catch (FileAlreadyExistsException exists) {
                    // another writer got there first: same bytes or a refusal, as with a link
                }
                requireSameBytes(target, content);
            }
            try (FileChannel directory = FileChannel.open(target.getParent(), StandardOpenOption.READ)) {
                directory.force(true);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        return new WrittenFile(target, out.bytes(), out.sha256Hex());
    }

    private static void requireSameBytes(Path target, byte[] content) throws IOException {
        byte[] found = Files.readAllBytes(target);
        if (!java.util.Arrays.equals(found, content)) {
            throw new FileAlreadyExistsException(target.toString(), null,
                    "holds other bytes (sha256 " + io.stowage.events.Sha256.of(found) + ")");
        }
    }

    /**
     * Writes small content (a manifest) durably under {@code target}'s name.
     *
     * @return the written file with its size and SHA-256
     */
    public static WrittenFile write(Path target, byte[] content) throws IOException {
        Path tmp = temporaryName(target.getParent(), target.getFileName().toString());
        DigestingOutputStream out = new DigestingOutputStream(create(tmp));
        try (out) {
            out.write(content);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        publish(tmp, target);
        return new WrittenFile(target, out.bytes(), out.sha256Hex());
    }
}
