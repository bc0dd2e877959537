package io.stowage.gatekeeper.domain;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A read-only view of the local disk as the gate needs it: entry types without following
 * symlinks, the recursive listing of a directory, file bytes (for manifests) and file SHA-256s
 * (for data files). The production implementation reads the real filesystem.
 */
public interface LocalTree {

    /** What an entry is, seen without following symlinks. */
    enum EntryType { FILE, DIRECTORY, SYMLINK, OTHER, MISSING }

    /**
     * One entry under a listed directory.
     *
     * @param path  absolute path of the entry
     * @param type  never {@link EntryType#MISSING}
     * @param bytes size in bytes for a regular file, else 0
     */
    record Entry(Path path, EntryType type, long bytes) {
    }

    /**
     * @return an identity of the directory or file itself (device and inode on Linux), equal for two paths that
     *         reach the same directory (a bind mount, a symlinked parent); null when unknown or missing
     */
    default Object fileKey(Path path) {
        return null;
    }

    /** @return the type of {@code path} without following a symlink at its last component */
    EntryType typeOf(Path path);

    /**
     * @return the path with every symlink in its components resolved (the path itself when none is)
     * @throws IOException when the path does not exist or cannot be resolved
     */
    Path realPath(Path path) throws IOException;

    /**
     * Every entry below {@code dir} (not {@code dir} itself), recursively, never descending
     * into a symlink, sorted by path.
     *
     * @throws IOException when an entry cannot be listed
     */
    List<Entry> list(Path dir) throws IOException;

    /**
     * @return the fingerprint of the directory as {@link io.stowage.events.DirectoryFingerprint}
     *         computes it (SHA-256 over type, relative path, bytes and mtime of every entry)
     * @throws IOException when the directory cannot be listed
     */
    String fingerprint(Path dir) throws IOException;

    /**
     * @return the whole content of a (small) file such as a manifest
     * @throws IOException when it cannot be read
     */
    byte[] read(Path file) throws IOException;

    /**
     * @return the SHA-256 of the file's content, 64 lower-case hex digits, computed now
     * @throws NotRegularFileException when the path is (or, opened, turns out to be) no regular file: a FIFO, socket,
     *                                 device, directory or symlink swapped in since it was listed
     * @throws IOException             when it cannot be read
     */
    String sha256(Path file) throws IOException;

    /** A path asked to be hashed is not a regular file (the gate denies it as {@code special-file}). */
    final class NotRegularFileException extends IOException {
        /** @param detail the path and what it is, e.g. "/v/step/a.bin is a FIFO or device" */
        public NotRegularFileException(String detail) {
            super(detail);
        }
    }
}
