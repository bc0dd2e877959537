package io.stowage.provideradapter.release;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes one directory tree without ever following a symlink, even one swapped in while it runs:
 * every component of the path from {@code /} down, and every subdirectory, is opened relative to
 * its parent's open directory with {@link LinkOption#NOFOLLOW_LINKS} ({@link SecureDirectoryStream},
 * openat with O_NOFOLLOW on Linux); entries are unlinked relative to that directory, so a symlink is
 * removed as a link and a path component replaced by a symlink makes the deletion stop with an error.
 */
final class SecureTreeDeleter {
    private int deleted;

    /**
     * @param dir absolute, normalised directory
     * @return the number of entries deleted (files, links, directories, including {@code dir})
     * @throws IOException at the first entry that cannot be opened or deleted (then only part is deleted),
     *                     or when the platform has no secure directory streams (then nothing is deleted)
     */
    static int delete(Path dir) throws IOException {
        SecureTreeDeleter deleter = new SecureTreeDeleter();
        try {
            deleter.deleteFromRoot(dir);
        } catch (IOException e) {
            throw new IOException(e.getMessage() + " (after " + deleter.deleted + " entries were deleted)", e);
        }
        return deleter.deleted;
    }

    private void deleteFromRoot(Path dir) throws IOException {
        try (DirectoryStream<Path> root = Files.newDirectoryStream(dir.getRoot())) {
            if (!(root instanceof SecureDirectoryStream<Path> secureRoot)) {
                throw new IOException("this platform offers no secure directory streams; refusing to delete " + dir);
            }
            deleteBelow(secureRoot, dir, 0);
        }
    }

    /** Descends one component of {@code dir} at a time from {@code parent}, then deletes the last one. */
    private void deleteBelow(SecureDirectoryStream<Path> parent, Path dir, int index) throws IOException {
        Path name = dir.getName(index);
        if (index == dir.getNameCount() - 1) {
            try (SecureDirectoryStream<Path> target = parent.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
                deleteContents(target);
            }
            parent.deleteDirectory(name);
            deleted++;
            return;
        }
        try (SecureDirectoryStream<Path> next = parent.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
            deleteBelow(next, dir, index + 1);
        }
    }

    private void deleteContents(SecureDirectoryStream<Path> dir) throws IOException {
        List<Path> names = new ArrayList<>();
        dir.forEach(entry -> names.add(entry.getFileName()));
        for (Path name : names) {
            BasicFileAttributes attrs = dir.getFileAttributeView(name, BasicFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS).readAttributes();
            if (attrs.isDirectory()) {
                try (SecureDirectoryStream<Path> sub = dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
                    deleteContents(sub);
                }
                dir.deleteDirectory(name);
            } else {
                dir.deleteFile(name);
            }
            deleted++;
        }
    }
}
