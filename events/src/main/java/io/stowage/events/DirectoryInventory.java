package io.stowage.events;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The content inventory of a directory: every regular file under it (relative path, bytes,
 * SHA-256 of its content), sorted by path, and the digest over that list. The gatekeeper puts the
 * digest (and the list) into {@link GatePassed}; the provider-adapter takes the inventory again,
 * hashing every file, immediately before it deletes, and refuses on any difference.
 * The digest is the SHA-256 of one UTF-8 line per file, sorted by path:
 * {@code <relative path>\t<bytes>\t<sha256>\n}.
 *
 * @param entries     sorted by path (String order)
 * @param digest      64 lower-case hex digits
 * @param symlinks    relative paths of symlinks seen (never followed); a gate refuses any
 * @param specials    relative paths of entries that are neither file, directory nor symlink (FIFO, socket, device)
 */
public record DirectoryInventory(List<InventoryEntry> entries, String digest, List<String> symlinks,
                                 List<String> specials) {
    public DirectoryInventory {
        entries = entries.stream().sorted(Comparator.comparing(InventoryEntry::path)).toList();
        symlinks = List.copyOf(symlinks);
        specials = List.copyOf(specials);
    }

    /** @return the inventory of already hashed entries (any order; sorted here), with no symlink nor special entry */
    public static DirectoryInventory of(List<InventoryEntry> entries) {
        return new DirectoryInventory(entries, digestOf(entries), List.of(), List.of());
    }

    /**
     * Walks {@code dir} without following any symlink and hashes every regular file (blocking I/O).
     *
     * @throws IOException when an entry cannot be listed or read
     */
    public static DirectoryInventory take(Path dir) throws IOException {
        List<InventoryEntry> entries = new ArrayList<>();
        List<String> links = new ArrayList<>();
        List<String> others = new ArrayList<>();
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                String rel = dir.relativize(file).toString().replace('\\', '/');
                if (attrs.isSymbolicLink()) {
                    links.add(rel);
                } else if (attrs.isRegularFile()) {
                    entries.add(new InventoryEntry(rel, attrs.size(), Sha256.of(file, LinkOption.NOFOLLOW_LINKS)));
                } else if (!attrs.isDirectory()) {
                    others.add(rel);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return new DirectoryInventory(entries, digestOf(entries), links, others);
    }

    /** @return the digest over {@code entries} (any order; sorted by path first), 64 lower-case hex digits */
    public static String digestOf(List<InventoryEntry> entries) {
        MessageDigest digest = Sha256.newDigest();
        entries.stream().sorted(Comparator.comparing(InventoryEntry::path)).forEach(e -> digest.update(
                (e.path() + "\t" + e.bytes() + "\t" + e.sha256() + "\n").getBytes(StandardCharsets.UTF_8)));
        return Sha256.hex(digest);
    }

    /** @return the number of regular files */
    public int fileCount() {
        return entries.size();
    }

    /** @return their total size in bytes */
    public long totalBytes() {
        return entries.stream().mapToLong(InventoryEntry::bytes).sum();
    }

    /**
     * @param approved the inventory the gate approved
     * @return one line per difference, sorted by path: "added p", "removed p", "changed p (bytes a->b, sha256 x..->y..)";
     *         empty when both list the same files with the same bytes and SHA-256
     */
    public List<String> differencesFrom(List<InventoryEntry> approved) {
        Map<String, InventoryEntry> before = new LinkedHashMap<>();
        approved.forEach(e -> before.put(e.path(), e));
        Map<String, InventoryEntry> now = new LinkedHashMap<>();
        entries.forEach(e -> now.put(e.path(), e));
        TreeSet<String> paths = new TreeSet<>(before.keySet());
        paths.addAll(now.keySet());
        List<String> lines = new ArrayList<>();
        for (String path : paths) {
            InventoryEntry was = before.get(path);
            InventoryEntry is = now.get(path);
            if (was == null) {
                lines.add("added " + path);
            } else if (is == null) {
                lines.add("removed " + path);
            } else if (was.bytes() != is.bytes() || !was.sha256().equals(is.sha256())) {
                lines.add("changed " + path + " (bytes " + was.bytes() + "->" + is.bytes() + ", sha256 "
                        + abbrev(was.sha256()) + "->" + abbrev(is.sha256()) + ")");
            }
        }
        return lines;
    }

    private static String abbrev(String sha256) {
        return sha256 == null || sha256.length() < 12 ? String.valueOf(sha256) : sha256.substring(0, 12);
    }
}
