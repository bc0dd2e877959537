package io.stowage.events;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;

/**
 * One state of a regular file, from one {@code stat} without following a symlink: its key (device and inode), bytes,
 * modification time and status-change time ({@code ctime}, which no call can set back: any write or attribute
 * change moves it). Two equal stamps taken around a read of the file mean no write landed in between, to the
 * resolution of the kernel's clock (a few milliseconds). The gatekeeper compares them to use a hash taken ahead; the
 * provider-adapter to unlink a file whose hash was taken under the stamp it still has.
 *
 * @param fileKey  {@link java.nio.file.attribute.BasicFileAttributes#fileKey()}
 * @param bytes    size in bytes
 * @param modified last modification time ({@link java.nio.file.attribute.FileTime})
 * @param changed  status-change time ({@code unix:ctime}, a {@link java.nio.file.attribute.FileTime})
 */
public record FileStamp(Object fileKey, long bytes, Object modified, Object changed) {

    /**
     * @throws IOException when the path cannot be read, or is not a regular file (a symlink is not followed)
     */
    public static FileStamp of(Path file) throws IOException {
        Map<String, Object> unix = Files.readAttributes(file, "unix:fileKey,size,lastModifiedTime,ctime,isRegularFile",
                LinkOption.NOFOLLOW_LINKS);
        if (!Boolean.TRUE.equals(unix.get("isRegularFile"))) {
            throw new IOException(file + " is not a regular file");
        }
        return new FileStamp(unix.get("fileKey"), (Long) unix.get("size"), unix.get("lastModifiedTime"), unix.get("ctime"));
    }
}
