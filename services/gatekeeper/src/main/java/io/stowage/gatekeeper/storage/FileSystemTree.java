package io.stowage.gatekeeper.storage;

import io.stowage.events.DirectoryFingerprint;
import io.stowage.events.Sha256;
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
 * hashes files by streaming them through SHA-256 (blocking I/O).
 */
public final class FileSystemTree implements LocalTree {
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

    @Override
    public byte[] read(Path file) throws IOException {
        return Files.readAllBytes(file);
    }

    @Override
    public String sha256(Path file) throws IOException {
        return Sha256.of(file, LinkOption.NOFOLLOW_LINKS);
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
