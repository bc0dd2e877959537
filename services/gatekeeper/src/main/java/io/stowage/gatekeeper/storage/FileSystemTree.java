package io.stowage.gatekeeper.storage;

import io.stowage.events.DirectoryFingerprint;
import io.stowage.gatekeeper.domain.LocalTree;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@link LocalTree} on the real filesystem: lists with {@link Files#walkFileTree} (which never
 * follows symlinks unless asked), reads attributes with {@link LinkOption#NOFOLLOW_LINKS}, and
 * hashes regular files by streaming them through SHA-256 with a bound on any stall ({@link RegularFileHash}).
 */
public final class FileSystemTree implements LocalTree {
    /** The largest manifest the gate reads: 512 MiB (a member manifest of 500,000 files is about 100 MiB). */
    public static final int MAX_MANIFEST_BYTES = 512 << 20;
    private final java.time.Duration stall;

    /** Gives a hash up after {@link RegularFileHash#DEFAULT_STALL} (5 s) without progress. */
    public FileSystemTree() {
        this(RegularFileHash.DEFAULT_STALL);
    }

    /** @param stall how long an open, or one read, of a file being hashed may take before the hash is given up */
    public FileSystemTree(java.time.Duration stall) {
        this.stall = stall;
    }

    /** @return the {@link BasicFileAttributes#fileKey()} (device and inode) of the path itself, null when missing */
    @Override
    public Object fileKey(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public EntryType typeOf(Path path) {
        try {
            return typeOf(Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        } catch (IOException e) {
            return EntryType.MISSING;
        }
    }

    @Override
    public Path realPath(Path path) throws IOException {
        return path.toRealPath();
    }

    @Override
    public List<Entry> list(Path dir) throws IOException {
        List<Entry> entries = new ArrayList<>();
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                if (!d.equals(dir)) {
                    entries.add(new Entry(d, EntryType.DIRECTORY, 0));
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                EntryType type = typeOf(attrs);
                entries.add(new Entry(file, type, type == EntryType.FILE ? attrs.size() : 0));
                return FileVisitResult.CONTINUE;
            }
        });
        entries.sort(Comparator.comparing(Entry::path));
        return entries;
    }

    @Override
    public String fingerprint(Path dir) throws IOException {
        return DirectoryFingerprint.of(dir).sha256();
    }

    /**
     * Reads a manifest through {@link RegularFileHash#readAll}: a regular file only (no symlink followed, no FIFO or
     * device), at most {@link #MAX_MANIFEST_BYTES}, with the same bound on a stalled open or read as {@link #sha256}.
     */
    @Override
    public byte[] read(Path file) throws IOException {
        return RegularFileHash.readAll(file, stall, MAX_MANIFEST_BYTES);
    }

    /**
     * Hashes through {@link RegularFileHash}: a path that is not a regular file is refused before it is opened, and an
     * open or read that makes no progress for {@link #stall} is given up, so a FIFO swapped in never holds the gate.
     *
     * @throws NotRegularFileException for a FIFO, socket, device, directory or symlink; IOException for a stall, a
     *                                 change while read, or a read error
     */
    @Override
    public String sha256(Path file) throws IOException {
        return RegularFileHash.of(file, stall);
    }

    private static EntryType typeOf(BasicFileAttributes attrs) {
        if (attrs.isSymbolicLink()) {
            return EntryType.SYMLINK;
        }
        if (attrs.isDirectory()) {
            return EntryType.DIRECTORY;
        }
        return attrs.isRegularFile() ? EntryType.FILE : EntryType.OTHER;
    }
}
