package io.stowage.events;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The fingerprint of a directory as the gate saw it, carried in {@link GatePassed#fingerprint()}
 * so that the provider-adapter can prove nothing was added, removed or changed before it deletes.
 * It is the SHA-256 of one UTF-8 line per entry under the directory (symlinks not followed),
 * sorted by relative path: {@code <type>\t<relative path>\t<bytes>\t<last-modified millis>\n},
 * where type is {@code f} (regular file), {@code d} (directory), {@code l} (symlink) or {@code o} (other).
 * Taking it reads metadata only, never a file's content.
 *
 * @param symlinks relative paths of the symlinks seen (never followed), sorted
 * @param specials relative paths of the entries that are neither file, directory nor symlink (FIFO, socket,
 *                 device), sorted
 */
public record DirectoryFingerprint(String sha256, int fileCount, long totalBytes, int symlinkCount,
                                   List<String> symlinks, List<String> specials) {
    public DirectoryFingerprint {
        symlinks = List.copyOf(symlinks);
        specials = List.copyOf(specials);
    }

    /**
     * Walks {@code dir} without following symlinks.
     *
     * @throws IOException when the directory cannot be listed
     */
    public static DirectoryFingerprint of(Path dir) throws IOException {
        List<String> lines = new ArrayList<>();
        List<String> symlinks = new ArrayList<>();
        List<String> specials = new ArrayList<>();
        int files = 0;
        int links = 0;
        long bytes = 0;
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path path : (Iterable<Path>) walk::iterator) {
                if (path.equals(dir)) {
                    continue;
                }
                BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                String type = attrs.isSymbolicLink() ? "l" : attrs.isDirectory() ? "d" : attrs.isRegularFile() ? "f" : "o";
                long size = attrs.isRegularFile() ? attrs.size() : 0;
                if (attrs.isRegularFile()) {
                    files++;
                    bytes += size;
                }
                if (attrs.isSymbolicLink()) {
                    links++;
                }
                String rel = dir.relativize(path).toString().replace('\\', '/');
                if (type.equals("l")) {
                    symlinks.add(rel);
                } else if (type.equals("o")) {
                    specials.add(rel);
                }
                lines.add(type + "\t" + rel + "\t" + size + "\t" + attrs.lastModifiedTime().toMillis() + "\n");
            }
        }
        lines.sort((a, b) -> a.substring(2).compareTo(b.substring(2)));
        MessageDigest digest = Sha256.newDigest();
        for (String line : lines) {
            digest.update(line.getBytes(StandardCharsets.UTF_8));
        }
        symlinks.sort(String::compareTo);
        specials.sort(String::compareTo);
        return new DirectoryFingerprint(Sha256.hex(digest), files, bytes, links, symlinks, specials);
    }
}
