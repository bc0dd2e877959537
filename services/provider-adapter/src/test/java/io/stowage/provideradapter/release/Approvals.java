package io.stowage.provideradapter.release;

import io.stowage.events.DirectoryFingerprint;
import io.stowage.events.DirectoryInventory;
import io.stowage.events.ReleaseTargetPolicy;
import io.stowage.provideradapter.domain.ApprovedRelease;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Test helpers: what the gate would approve for a directory as it is now, and snapshots of a tree. */
final class Approvals {
    static final String ANY = "0".repeat(64);

    private Approvals() {
    }

    /**
     * @return the approval of {@code dir} as it is now (fingerprint and inventory); dummy digests when it cannot be
     *         listed or lies outside the temp directory (never hash {@code /} or a home directory in a test)
     */
    static ApprovedRelease of(Path dir) {
        try {
            Path temp = Path.of(System.getProperty("java.io.tmpdir")).toRealPath();
            if (dir.isAbsolute() && dir.normalize().startsWith(temp) && Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                DirectoryInventory inventory = DirectoryInventory.take(dir);
                return new ApprovedRelease(dir, DirectoryFingerprint.of(dir).sha256(), inventory.digest(),
                        inventory.entries());
            }
        } catch (IOException e) {
            // fall through: a target the gate could not have listed
        }
        return new ApprovedRelease(dir, ANY, ANY, List.of());
    }

    /** @return the rule: volume root {@code vol}, workspace {@code vol/../ws}, home {@code vol/../home} */
    static ReleaseTargetPolicy policy(Path volumeRoot) {
        Path tmp = volumeRoot.getParent();
        return ReleaseTargetPolicy.of(List.of(tmp.resolve("ws").toString()), List.of(volumeRoot.toString()),
                tmp.resolve("home").toString());
    }

    /** @return every entry under {@code root}, not following links: relative path to type and content or link target */
    static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : (Iterable<Path>) walk::iterator) {
                BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                String what = attrs.isSymbolicLink() ? "link->" + Files.readSymbolicLink(path)
                        : attrs.isRegularFile() ? "file:" + Files.readString(path)
                        : attrs.isDirectory() ? "dir" : "other";
                entries.put(root.relativize(path).toString(), what);
            }
        }
        return entries;
    }
}
