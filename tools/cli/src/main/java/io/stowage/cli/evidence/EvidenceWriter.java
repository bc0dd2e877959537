package io.stowage.cli.evidence;

import io.stowage.cli.CliException;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Writes an export's files into their directory all at once: into a new hidden sibling directory
 * ({@code .<name>.stowage-export-<random>} beside the target), each file fsynced, then the directory renamed to the
 * target in one step. A failure removes the sibling and the files it wrote, so the target is either absent, as it
 * was, or complete. The target must be absent or an empty directory; anything else is refused before the ledger is
 * read and left as it is.
 */
public final class EvidenceWriter {
    private EvidenceWriter() {
    }

    /**
     * @param to the target directory as given
     * @return its absolute, normalised path
     * @throws CliException (exit 2) when it exists and is not an empty directory, or its parent directory is missing
     */
    public static Path target(Path to) {
        Path dir = to.toAbsolutePath().normalize();
        if (dir.getParent() == null || !Files.isDirectory(dir.getParent())) {
            throw new CliException(CliException.USAGE, "--to " + to + ": its parent directory does not exist");
        }
        if (Files.exists(dir) && !isEmptyDirectory(dir)) {
            throw new CliException(CliException.USAGE, "--to " + to + " exists and is not an empty directory; nothing written");
        }
        return dir;
    }

    /**
     * @param dir   the target, from {@link #target}
     * @param files file name to UTF-8 text, written in this order
     * @throws CliException exit 2 when the target was filled meanwhile, exit 1 when a file cannot be written; in both
     *                      cases nothing of the export is left on disk
     */
    public static void write(Path dir, Map<String, String> files) {
        Path temp = dir.resolveSibling("." + dir.getFileName() + ".stowage-export-" + UUID.randomUUID());
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectory(temp);
            for (Map.Entry<String, String> file : files.entrySet()) {
                Path path = temp.resolve(file.getKey());
                written.add(path);
                writeSynced(path, file.getValue());
            }
            Files.move(temp, dir, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
            removeQuietly(written, temp);
            throw new CliException(CliException.USAGE, "--to " + dir + " was filled while exporting; nothing written");
        } catch (IOException e) {
            removeQuietly(written, temp);
            throw new CliException(CliException.FAILED, "cannot write the export to " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void writeSynced(Path path, String text) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
            channel.force(true);
        }
    }

    /** Removes only what this export created: its own files, then its own (then empty) sibling directory. */
    private static void removeQuietly(List<Path> written, Path temp) {
        for (Path file : written) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // the sibling stays; it is hidden and named as ours
            }
        }
        try {
            Files.deleteIfExists(temp);
        } catch (IOException ignored) {
            // not empty or gone: never removed recursively
        }
    }

    private static boolean isEmptyDirectory(Path dir) {
        if (!Files.isDirectory(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }
}
