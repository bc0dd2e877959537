package io.stowage.shardformat.write;

import io.stowage.shardformat.MemberName;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Lists the regular files of a dataset directory without following symlinks: consumes a directory,
 * produces {@link Member}s sorted by relative path (Java {@link String} order of the '/'-separated
 * path), which is the member order of the shards. A file hard-linked from outside the directory is
 * refused with the other non-regular entries ({@link HardLinks}).
 */
public final class DatasetScanner {

    /**
     * @param dir the dataset directory
     * @return every regular file below {@code dir}, sorted by relative path; empty when there is none
     * @throws DatasetInputException when {@code dir} is missing, not a directory or unreadable, or when
     *                               it holds symlinks, FIFOs, sockets, devices or hard-linked files with a
     *                               link outside {@code dir} (one message names every one of them, with
     *                               its kind, sorted by path), or a file whose relative name the shard-format
     *                               {@code MemberName} rule refuses (a backslash in a name); hard links that all lie inside {@code dir}
     *                               are allowed and each name is listed as a member of its own
     * @throws IOException           when walking the directory fails for another reason
     */
    public List<Member> scan(Path dir) throws IOException {
        Path root = dir.toAbsolutePath().normalize();
        if (Files.isSymbolicLink(root)) {
            throw new DatasetInputException("the dataset directory is a symlink: " + root);
        }
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            throw new DatasetInputException("the dataset directory does not exist: " + root);
        }
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            throw new DatasetInputException("not a directory: " + root);
        }
        if (!Files.isReadable(root) || !Files.isExecutable(root)) {
            throw new DatasetInputException("directory is not readable: " + root);
        }
        List<Member> members = new ArrayList<>();
        List<String> offenders = new ArrayList<>();
        HardLinks hardLinks = new HardLinks();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Optional<String> unsafe = MemberName.problem(relativeName(root, file));
                if (unsafe.isPresent()) {
                    offenders.add(file + " (a name no shard may hold: it " + unsafe.get() + ")");
                } else if (attributes.isRegularFile()) {
                    hardLinks.add(file);
                    members.add(new Member(relativeName(root, file), file, attributes.size(),
                            attributes.lastModifiedTime()));
                } else {
                    offenders.add(file + " (" + FileKind.of(file, attributes) + ")");
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                throw new DatasetInputException("cannot read " + file + ": " + e.getClass().getSimpleName());
            }
        });
        offenders.addAll(hardLinks.offenders());
        if (!offenders.isEmpty()) {
            offenders.sort(null);
            throw new DatasetInputException("only regular files can be sharded; the dataset directory also holds: "
                    + String.join(", ", offenders));
        }
        members.sort(Comparator.comparing(Member::path));
        return members;
    }

    private static String relativeName(Path root, Path file) {
        StringBuilder name = new StringBuilder();
        for (Path part : root.relativize(file)) {
            if (name.length() > 0) {
                name.append('/');
            }
            name.append(part);
        }
        return name.toString();
    }
}
