package io.stowage.gatekeeper.domain;

import io.stowage.events.Sha256;

import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** A disk in memory for unit tests of the pure gate logic: files, symlinks and special files by absolute path. */
class InMemoryTree implements LocalTree {
    private final Map<Path, byte[]> files = new TreeMap<>();
    private final Set<Path> symlinks = new HashSet<>();
    private final Set<Path> others = new HashSet<>();
    private final Set<Path> dirs = new HashSet<>();
    private final Map<Path, Path> realPaths = new HashMap<>();

    InMemoryTree file(Path path, String content) {
        return file(path, content.getBytes(StandardCharsets.UTF_8));
    }

    InMemoryTree file(Path path, byte[] content) {
        files.put(path, content);
        return this;
    }

    InMemoryTree dir(Path path) {
        dirs.add(path);
        return this;
    }

    InMemoryTree symlink(Path path) {
        symlinks.add(path);
        return this;
    }

    InMemoryTree special(Path path) {
        others.add(path);
        return this;
    }

    InMemoryTree resolvesTo(Path path, Path real) {
        realPaths.put(path, real);
        return this;
    }

    void delete(Path path) {
        files.remove(path);
    }

    @Override
    public EntryType typeOf(Path path) {
        if (files.containsKey(path)) {
            return EntryType.FILE;
        }
        if (symlinks.contains(path)) {
            return EntryType.SYMLINK;
        }
        if (others.contains(path)) {
            return EntryType.OTHER;
        }
        boolean parent = dirs.contains(path) || allPaths().stream().anyMatch(p -> p.startsWith(path) && !p.equals(path));
        return parent ? EntryType.DIRECTORY : EntryType.MISSING;
    }

    @Override
    public Path realPath(Path path) {
        return realPaths.getOrDefault(path, path);
    }

    @Override
    public List<Entry> list(Path dir) {
        Set<Path> below = new java.util.TreeSet<>();
        for (Path p : allPaths()) {
            for (Path q = p; q != null && q.startsWith(dir) && !q.equals(dir); q = q.getParent()) {
                below.add(q);
            }
        }
        List<Entry> entries = new ArrayList<>();
        for (Path p : below) {
            EntryType type = typeOf(p);
            entries.add(new Entry(p, type, type == EntryType.FILE ? files.get(p).length : 0));
        }
        return entries;
    }

    /** Fingerprint over the listing and every file's content (an in-memory disk has no mtime). */
    @Override
    public String fingerprint(Path dir) {
        StringBuilder listing = new StringBuilder();
        for (Entry entry : list(dir)) {
            listing.append(entry.type()).append('\t').append(entry.path()).append('\t')
                    .append(entry.type() == EntryType.FILE ? Sha256.of(files.get(entry.path())) : "").append('\n');
        }
        return Sha256.of(listing.toString().getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public byte[] read(Path file) throws NoSuchFileException {
        byte[] bytes = files.get(file);
        if (bytes == null) {
            throw new NoSuchFileException(file.toString());
        }
        return bytes;
    }

    @Override
    public String sha256(Path file) throws NoSuchFileException {
        return Sha256.of(read(file));
    }

    private Set<Path> allPaths() {
        Set<Path> all = new HashSet<>(files.keySet());
        all.addAll(symlinks);
        all.addAll(others);
        all.addAll(dirs);
        return all;
    }
}
