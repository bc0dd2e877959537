package io.stowage.events;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * The size quota of a local provider volume, which our own writers check before they write into it. A local volume
 * is a directory {@code <root>/<volume id>} whose quota in bytes is the decimal number in the sibling file
 * {@code <root>/<volume id>.quota} (outside the directory, so the gate never sees it as an unaccounted file).
 * A path under no such directory has no quota.
 */
public final class VolumeQuota {
    /** Suffix of the sibling file holding a volume directory's quota in bytes. */
    public static final String SUFFIX = ".quota";

    private final Path volumeDir;
    private final long quotaBytes;

    private VolumeQuota(Path volumeDir, long quotaBytes) {
        this.volumeDir = volumeDir;
        this.quotaBytes = quotaBytes;
    }

    /**
     * @param path any path (need not exist yet) at or under a volume directory
     * @return the quota of the nearest enclosing volume directory, empty when there is none
     * @throws IOException when a quota file exists but cannot be read or holds no number
     */
    public static Optional<VolumeQuota> of(Path path) throws IOException {
        for (Path dir = path.toAbsolutePath().normalize(); dir != null && dir.getParent() != null; dir = dir.getParent()) {
            Path file = dir.resolveSibling(dir.getFileName() + SUFFIX);
            if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                String text = Files.readString(file, StandardCharsets.UTF_8).trim();
                try {
                    return Optional.of(new VolumeQuota(dir, Long.parseLong(text)));
                } catch (NumberFormatException e) {
                    throw new IOException("quota file " + file + " holds no byte count: " + text);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Refuses a write of {@code bytes} more bytes under {@code path} when the volume would pass its quota.
     *
     * @throws QuotaExceededException when used + bytes > quota (nothing should be written)
     * @throws IOException            when the quota or the volume's usage cannot be read
     */
    public static void check(Path path, long bytes) throws IOException {
        Optional<VolumeQuota> quota = of(path);
        if (quota.isPresent()) {
            quota.get().require(bytes);
        }
    }

    /** Writes the quota file of {@code volumeDir} ({@code bytes} in decimal). */
    public static void write(Path volumeDir, long bytes) throws IOException {
        Files.writeString(volumeDir.resolveSibling(volumeDir.getFileName() + SUFFIX), Long.toString(bytes),
                StandardCharsets.UTF_8);
    }

    /** @return the volume directory */
    public Path volumeDir() {
        return volumeDir;
    }

    /** @return the quota in bytes */
    public long quotaBytes() {
        return quotaBytes;
    }

    /** @return bytes of the regular files under the volume directory now (symlinks not followed) */
    public long usedBytes() throws IOException {
        long[] total = {0};
        if (!Files.isDirectory(volumeDir, LinkOption.NOFOLLOW_LINKS)) {
            return 0;
        }
        Files.walkFileTree(volumeDir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (attrs.isRegularFile()) {
                    total[0] += attrs.size();
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return total[0];
    }

    /** @throws QuotaExceededException when used + bytes > quota */
    public void require(long bytes) throws IOException {
        long used = usedBytes();
        if (bytes < 0 || used + bytes > quotaBytes) {
            throw new QuotaExceededException(volumeDir, quotaBytes, used, bytes);
        }
    }

    /** A write would pass a volume's quota; the message names the volume, quota, usage and the refused bytes. */
    public static final class QuotaExceededException extends IOException {
        public QuotaExceededException(Path volumeDir, long quotaBytes, long usedBytes, long bytes) {
            super("volume " + volumeDir + " quota " + quotaBytes + " bytes: " + usedBytes + " used, refusing "
                    + bytes + " more");
        }
    }
}
