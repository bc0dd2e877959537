package io.stowage.provideradapter.release;

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
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Deletes, under a directory renamed aside, exactly the regular files whose relative path, bytes and SHA-256 are in
 * the approved inventory, hashing each one through the file it is about to unlink; keeps every other entry (a file
 * added or changed, a symlink, a FIFO) and the directories holding one, and removes the directories left empty
 * (the renamed directory too when nothing is kept). It never follows a symlink:
 * every component from {@code /} down and every subdirectory is opened relative to its parent with
 * {@link LinkOption#NOFOLLOW_LINKS} ({@link SecureDirectoryStream}), and entries are unlinked relative to it.
 */
final class ApprovedFileDeleter {
    private static final int BUFFER_BYTES = 1 << 20;

    private final Map<String, InventoryEntry> approved;
    private final List<String> kept = new ArrayList<>();
    private final Set<String> present = new TreeSet<>();

    private ApprovedFileDeleter(Map<String, InventoryEntry> approved) {
        this.approved = approved;
    }

    /**
     * What a sweep left.
     *
     * @param kept    one line per entry kept, sorted by path: "added p", "changed p (bytes a->b, sha256 x->y)",
     *                "symlink p", "special p"
     * @param present relative paths of every entry still under the directory (kept files included)
     */
    record Sweep(List<String> kept, Set<String> present) {
    }

    /**
     * @param aside    absolute, normalised directory (the renamed target)
     * @param approved the approved inventory by relative path
     * @throws IOException at the first entry that cannot be opened, read or deleted (then only part is deleted;
     *                     calling again goes on), or when the platform has no secure directory streams
     */
    static Sweep sweep(Path aside, Map<String, InventoryEntry> approved) throws IOException {
        ApprovedFileDeleter deleter = new ApprovedFileDeleter(approved);
        try (DirectoryStream<Path> root = Files.newDirectoryStream(aside.getRoot())) {
            if (!(root instanceof SecureDirectoryStream<Path> secureRoot)) {
                throw new IOException("this platform offers no secure directory streams; refusing to delete " + aside);
            }
            deleter.descend(secureRoot, aside, 0);
        }
        deleter.kept.sort(String::compareTo);
        return new Sweep(List.copyOf(deleter.kept), deleter.present);
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
            } else {
                file(dir, name, rel);
            }
        }
    }

    private void file(SecureDirectoryStream<Path> dir, Path name, String rel) throws IOException {
        InventoryEntry want = approved.get(rel);
        long bytes;
        String sha256;
        try (SeekableByteChannel channel = dir.newByteChannel(name, Set.of(StandardOpenOption.READ,
                LinkOption.NOFOLLOW_LINKS))) {
            bytes = channel.size();
            sha256 = want == null ? null : sha256(channel);
        }
        if (want == null) {
            keep(rel, "added " + rel);
        } else if (want.bytes() != bytes || !want.sha256().equals(sha256)) {
            keep(rel, "changed " + rel + " (bytes " + want.bytes() + "->" + bytes + ", sha256 "
                    + want.sha256().substring(0, 12) + "->" + sha256.substring(0, 12) + ")");
        } else {
            dir.deleteFile(name);
        }
    }

    private void removeIfEmpty(SecureDirectoryStream<Path> parent, Path name, String rel) throws IOException {
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
