package io.stowage.provideradapter.release;

import io.stowage.events.FileStamp;
import io.stowage.events.InventoryEntry;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Deletes, under a directory renamed aside, exactly the regular files of the approved inventory, all or none, with
 * one read of each file. First a checking pass: every regular file is hashed through a channel opened relative to its
 * directory, between two stamps of it (file key, bytes, modification and status-change times); a file that is not
 * approved, differs from the inventory in bytes or SHA-256, or whose stamp moved while it was read, and any symlink
 * or special file, is kept, and then nothing is deleted. Otherwise a deleting pass unlinks each file whose stamp is
 * still the one its hash was taken under (a write since would have moved its modification or status-change time;
 * a swapped file has another key) and keeps any other, and removes the directories left empty (the renamed directory
 * too when nothing is kept). Approved files already absent (a deletion cut short by a restart) are not differences.
 * It never follows a symlink: every component from {@code /} down and every subdirectory is opened relative to its
 * parent with {@link LinkOption#NOFOLLOW_LINKS} ({@link SecureDirectoryStream}), and entries are unlinked relative
 * to it.
 */
final class ApprovedFileDeleter {
    private static final int BUFFER_BYTES = 1 << 20;

    private enum Pass { CHECK, DELETE }

    private final Path aside;
    private final Map<String, InventoryEntry> approved;
    private final Map<String, FileStamp> hashed = new HashMap<>();
    private final List<String> kept = new ArrayList<>();
    private final Set<String> present = new TreeSet<>();
    private Pass pass = Pass.CHECK;

    private ApprovedFileDeleter(Path aside, Map<String, InventoryEntry> approved) {
        this.aside = aside;
        this.approved = approved;
    }

    /**
     * What a sweep left.
     *
     * @param kept        one line per entry kept, sorted by path: "added p", "changed p (bytes a->b, sha256 x->y)",
     *                    "changed while read p", "changed after it was read p", "symlink p", "special p"
     * @param present     relative paths of every entry still under the directory (kept files included)
     * @param deletedNone true when the checking pass found a difference, so that this sweep deleted nothing
     */
    record Sweep(List<String> kept, Set<String> present, boolean deletedNone) {
    }

    /**
     * @param aside    absolute, normalised directory (the renamed target)
     * @param approved the approved inventory by relative path
     * @throws IOException at the first entry that cannot be opened, read or deleted (then only part is deleted;
     *                     calling again goes on), or when the platform has no secure directory streams
     */
    static Sweep sweep(Path aside, Map<String, InventoryEntry> approved) throws IOException {
        return sweep(aside, approved, () -> { });
    }

    /** As {@link #sweep(Path, Map)}, running {@code betweenPasses} after the checking pass (tests change files there). */
    static Sweep sweep(Path aside, Map<String, InventoryEntry> approved, IoAction betweenPasses) throws IOException {
        ApprovedFileDeleter deleter = new ApprovedFileDeleter(aside, approved);
        deleter.walk();
        if (!deleter.kept.isEmpty()) {
            deleter.kept.sort(String::compareTo);
            return new Sweep(List.copyOf(deleter.kept), deleter.present, true);
        }
        betweenPasses.run();
        deleter.pass = Pass.DELETE;
        deleter.present.clear();
        deleter.walk();
        deleter.kept.sort(String::compareTo);
        return new Sweep(List.copyOf(deleter.kept), deleter.present, false);
    }

    /** Something done to the files between the two passes. */
    interface IoAction {
        void run() throws IOException;
    }

    private void walk() throws IOException {
        try (DirectoryStream<Path> root = Files.newDirectoryStream(aside.getRoot())) {
            if (!(root instanceof SecureDirectoryStream<Path> secureRoot)) {
                throw new IOException("this platform offers no secure directory streams; refusing to delete " + aside);
            }
            descend(secureRoot, aside, 0);
        }
    }

    private void descend(SecureDirectoryStream<Path> parent, Path dir, int index) throws IOException {
        Path name = dir.getName(index);
        if (index == dir.getNameCount() - 1) {
            try (SecureDirectoryStream<Path> target = parent.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
                sweepContents(target, "");
            }
            removeIfEmpty(parent, name, "");
            return;
        }
        try (SecureDirectoryStream<Path> next = parent.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
            descend(next, dir, index + 1);
        }
    }

    private void sweepContents(SecureDirectoryStream<Path> dir, String prefix) throws IOException {
        List<Path> names = new ArrayList<>();
        dir.forEach(entry -> names.add(entry.getFileName()));
        for (Path name : names) {
            String rel = prefix + name;
            BasicFileAttributes attrs = dir.getFileAttributeView(name, BasicFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS).readAttributes();
            if (attrs.isDirectory()) {
                try (SecureDirectoryStream<Path> sub = dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
                    sweepContents(sub, rel + "/");
                }
                removeIfEmpty(dir, name, rel);
            } else if (attrs.isSymbolicLink()) {
                keep(rel, "symlink " + rel);
            } else if (!attrs.isRegularFile()) {
                keep(rel, "special " + rel);
            } else if (pass == Pass.CHECK) {
                check(dir, name, rel);
            } else {
                delete(dir, name, rel);
            }
        }
    }

    /** Hashes one file between two stamps; keeps it (and so stops the deletion) unless it is approved and unchanged. */
    private void check(SecureDirectoryStream<Path> dir, Path name, String rel) throws IOException {
        present.add(rel);
        InventoryEntry want = approved.get(rel);
        if (want == null) {
            keep(rel, "added " + rel);
            return;
        }
        FileStamp before = stamp(dir, name, rel);
        long bytes;
        String sha256;
        try (SeekableByteChannel channel = dir.newByteChannel(name, Set.of(StandardOpenOption.READ,
                LinkOption.NOFOLLOW_LINKS))) {
            bytes = channel.size();
            sha256 = sha256(channel);
        }
        FileStamp after = stamp(dir, name, rel);
        if (want.bytes() != bytes || !want.sha256().equals(sha256)) {
            keep(rel, "changed " + rel + " (bytes " + want.bytes() + "->" + bytes + ", sha256 "
                    + want.sha256().substring(0, 12) + "->" + sha256.substring(0, 12) + ")");
        } else if (before == null || !before.equals(after) || before.bytes() != bytes) {
            keep(rel, "changed while read " + rel);
        } else {
            hashed.put(rel, before);
        }
    }

    /** Unlinks one file whose stamp is still the one its hash was taken under; keeps any other. */
    private void delete(SecureDirectoryStream<Path> dir, Path name, String rel) throws IOException {
        FileStamp then = hashed.get(rel);
        if (then == null) {
            keep(rel, "added " + rel);
        } else if (!then.equals(stamp(dir, name, rel))) {
            keep(rel, "changed after it was read " + rel);
        } else {
            dir.deleteFile(name);
        }
    }

    /**
     * @return the file's stamp, its key as seen through {@code dir} and by path in one {@code stat} (with the
     *         status-change time, which no call can set back); null when the two do not name the same file
     */
    private FileStamp stamp(SecureDirectoryStream<Path> dir, Path name, String rel) throws IOException {
        BasicFileAttributes attrs = dir.getFileAttributeView(name, BasicFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS).readAttributes();
        FileStamp byPath;
        try {
            byPath = FileStamp.of(aside.resolve(rel));
        } catch (IOException notAFile) {
            return null;
        }
        if (attrs.fileKey() == null || !attrs.fileKey().equals(byPath.fileKey())
                || !attrs.lastModifiedTime().equals(byPath.modified()) || attrs.size() != byPath.bytes()) {
            return null;
        }
        return byPath;
    }

    private void removeIfEmpty(SecureDirectoryStream<Path> parent, Path name, String rel) throws IOException {
        if (pass == Pass.CHECK) {
            if (!rel.isEmpty()) {
                present.add(rel + "/");
            }
            return;
        }
        try {
            parent.deleteDirectory(name);
        } catch (DirectoryNotEmptyException e) {
            if (!rel.isEmpty()) {
                present.add(rel + "/");
            }
        }
    }

    private void keep(String rel, String line) {
        kept.add(line);
        present.add(rel);
    }

    private static String sha256(SeekableByteChannel channel) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
        ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
        while (channel.read(buffer) >= 0) {
            buffer.flip();
            digest.update(buffer);
            buffer.clear();
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
