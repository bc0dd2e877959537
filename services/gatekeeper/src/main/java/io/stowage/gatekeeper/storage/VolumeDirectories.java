package io.stowage.gatekeeper.storage;

import io.stowage.events.ReleaseTargetPolicy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Lists the directories under the volume roots that the path rule ({@link ReleaseTargetPolicy}) would let a release
 * request name, with the regular files and bytes each holds now. Reads the disk only; never follows a symlink.
 */
public final class VolumeDirectories {
    /** Directory levels below a volume root that are listed (a run directory and its step directories fit). */
    public static final int MAX_DEPTH = 4;
    /** Directories answered at most. */
    public static final int MAX_DIRECTORIES = 1000;

    private final ReleaseTargetPolicy policy;

    /** @param policy the gate's path rule, as the evaluator uses it */
    public VolumeDirectories(ReleaseTargetPolicy policy) {
        this.policy = policy;
    }

    /**
     * One directory a release may name.
     *
     * @param path  absolute, normalised directory
     * @param root  the volume root it lies under
     * @param files regular files under it (any depth), symlinks not counted
     * @param bytes their bytes
     */
    public record Entry(String path, String root, long files, long bytes) {
    }

    /** @return every releasable directory up to {@value #MAX_DEPTH} levels below each existing volume root, path order */
    public List<Entry> list() {
        List<Entry> out = new ArrayList<>();
        for (Path root : policy.volumeRoots()) {
            if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            try (Stream<Path> dirs = Files.walk(root, MAX_DEPTH)) {
                dirs.filter(d -> Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS))
                        .map(d -> d.toAbsolutePath().normalize())
                        .filter(d -> policy.refusal(d).isEmpty())
                        .sorted().limit(MAX_DIRECTORIES - out.size())
                        .forEach(d -> out.add(measure(d, root)));
            } catch (IOException | UncheckedIOException e) {
                // a root that vanished or cannot be read lists nothing; the gate itself decides on requests
            }
        }
        return out;
    }

    private static Entry measure(Path dir, Path root) {
        long[] totals = new long[2];
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile()) {
                        totals[0]++;
                        totals[1] += attrs.size();
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            // counted what could be read
        }
        return new Entry(dir.toString(), root.toString(), totals[0], totals[1]);
    }
}
