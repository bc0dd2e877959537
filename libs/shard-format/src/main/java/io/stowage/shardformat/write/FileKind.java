package io.stowage.shardformat.write;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/** Names the kind of a directory entry that is not a regular file, for error messages (symlink, FIFO, socket, ...). */
final class FileKind {
    private static final int TYPE_MASK = 0170000;

    private FileKind() {
    }

    /**
     * @param file       the entry, not followed if it is a symlink
     * @param attributes its attributes, read without following links
     * @return "symlink", "directory", "FIFO", "socket", "character device", "block device" or "special file"
     */
    static String of(Path file, BasicFileAttributes attributes) throws IOException {
        if (attributes.isSymbolicLink()) {
            return "symlink";
        }
        if (attributes.isDirectory()) {
            return "directory";
        }
        try {
            int mode = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            return switch (mode & TYPE_MASK) {
                case 0010000 -> "FIFO";
                case 0140000 -> "socket";
                case 0020000 -> "character device";
                case 0060000 -> "block device";
                default -> "special file";
            };
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return "special file";
        }
    }
}
