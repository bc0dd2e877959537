package io.stowage.shardformat.write;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tracks the regular files of one dataset scan that have more than one hard link: consumes each
 * regular file as the scan meets it, produces the offenders whose other links are not all inside the
 * dataset directory. A file is identified by its device and inode ({@code unix:dev}, {@code unix:ino});
 * its link count ({@code unix:nlink}) is compared with the number of its names found in the tree.
 * Links that all lie inside the tree are no offence: each name becomes an ordinary, full member (see
 * docs/design/shards.md). On a file system without the {@code unix} attribute view every file counts as
 * having one link.
 */
final class HardLinks {
    private record FileId(Object device, Object inode) {
    }

    private record Linked(int links, List<Path> names) {
    }

    private final Map<FileId, Linked> linked = new LinkedHashMap<>();

    /**
     * @param file a regular file of the dataset directory, not followed if it is a symlink
     * @throws IOException when its attributes cannot be read
     */
    void add(Path file) throws IOException {
        Map<String, Object> unix;
        try {
            unix = Files.readAttributes(file, "unix:nlink,ino,dev", LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return;
        }
        int links = ((Number) unix.get("nlink")).intValue();
        if (links > 1) {
            linked.computeIfAbsent(new FileId(unix.get("dev"), unix.get("ino")), id -> new Linked(links, new ArrayList<>()))
                    .names().add(file);
        }
    }

    /**
     * @return one entry per name of every hard-linked file that has links outside the dataset directory,
     *         in the form {@code <path> (hard link: <k> of its <n> links inside the dataset directory)}; empty when none
     */
    List<String> offenders() {
        List<String> offenders = new ArrayList<>();
        for (Linked file : linked.values()) {
            if (file.names().size() < file.links()) {
                for (Path name : file.names()) {
                    offenders.add(name + " (hard link: " + file.names().size() + " of its " + file.links()
                            + " links inside the dataset directory)");
                }
            }
        }
        return offenders;
    }
}
