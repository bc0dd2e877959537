package io.stowage.gatekeeper.domain;

import io.stowage.events.Sha256;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Every entry under a directory (not following symlinks): type, and for files bytes and SHA-256; for links the target. */
final class TreeSnapshot {
    private TreeSnapshot() {
    }

    static Map<String, String> of(Path root) throws IOException {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                String what = a.isSymbolicLink() ? "link->" + Files.readSymbolicLink(p)
                        : a.isRegularFile() ? "file " + a.size() + " " + fileDigest(p)
                        : a.isDirectory() ? "dir" : "other";
                entries.put(root.relativize(p).toString(), what);
            }
        }
        return entries;
    }

    static String fileDigest(Path file) throws IOException {
        return Sha256.of(Files.readAllBytes(file));
    }
}
