package io.stowage.uploader.domain;

import io.stowage.events.ArchivePublished;
import io.stowage.events.BaselineArchived;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.DatasetSealed;
import io.stowage.events.ModelPublished;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The directories the uploader may read files from (its configured roots: the shard-builder's staging directory and
 * the volume roots), and the rule that confines every local path an event names to them. A path passes only when it
 * is absolute, has no {@code .} or {@code ..} segment and no NUL, lies strictly under a root as written, and still
 * lies under a root once every symlink in it is resolved (for a path that does not exist yet, its nearest existing
 * ancestor is resolved). No roots: every path is refused. The check runs before any byte of the file is read, so a
 * refused event never yields a failure that tells a file's size or SHA-256.
 */
public final class UploadRoots {
    private final List<Path> roots;

    /** @param roots absolute directories (they need not exist); relative ones are refused by {@link #problem} for every path */
    public UploadRoots(List<Path> roots) {
        this.roots = roots.stream().filter(Path::isAbsolute).map(Path::normalize).distinct().toList();
    }

    /** @return the roots, absolute and normalised, in configuration order */
    public List<Path> roots() {
        return roots;
    }

    /**
     * @param path a local path as an event gives it
     * @return why the uploader must not read it, one line naming the path; empty when it may
     */
    public Optional<String> problem(String path) {
        if (path == null || path.isEmpty()) {
            return Optional.of("no local path given");
        }
        if (roots.isEmpty()) {
            return Optional.of("local path " + path + " refused: the uploader has no upload roots configured"
                    + " (stowage.uploader.roots)");
        }
        Optional<String> shape = shapeProblem(path);
        if (shape.isPresent()) {
            return Optional.of("local path " + path + " " + shape.get());
        }
        Path file = Path.of(path);
        if (roots.stream().noneMatch(root -> strictlyUnder(file, root))) {
            return Optional.of("local path " + path + " is outside the upload roots " + roots);
        }
        Optional<Path> real = realPath(file);
        if (real.isEmpty() || realRoots().stream().noneMatch(root -> under(real.get(), root))) {
            return Optional.of("local path " + path + " resolves through a symlink to outside the upload roots " + roots);
        }
        return Optional.empty();
    }

    /**
     * @param event an incoming event
     * @throws PlanRefusedException naming the first local path of the event that {@link #problem} refuses
     */
    public void requireConfined(StowageEvent event) {
        for (Map.Entry<String, String> field : localPaths(event).entrySet()) {
            problem(field.getValue()).ifPresent(reason -> {
                throw new PlanRefusedException(field.getValue(), field.getKey() + ": " + reason);
            });
        }
    }

    /** @throws PlanRefusedException naming the first task whose local file {@link #problem} refuses */
    public void requireConfined(List<UploadTask> tasks) {
        for (UploadTask task : tasks) {
            problem(task.localPath().toString()).ifPresent(reason -> {
                // the reason names the path only: a task's key holds the SHA-256 the event claims for the file
                throw new PlanRefusedException(task.localPath().toString(), reason);
            });
        }
    }

    /** @return the local paths an event names, by field name; empty for an event that names none */
    static Map<String, String> localPaths(StowageEvent event) {
        Map<String, String> paths = new LinkedHashMap<>();
        if (event instanceof ShardBuilt e) {
            paths.put("shardPath", e.shardPath());
            paths.put("membersPath", e.membersPath());
        } else if (event instanceof DatasetSealed e) {
            paths.put("manifestPath", e.manifestPath());
        } else if (event instanceof CheckpointPublished e) {
            paths.put("manifestPath", e.manifestPath());
            paths.put("stepDir", e.stepDir());
        } else if (event instanceof BaselineArchived e) {
            paths.put("archivePath", e.archivePath());
            paths.put("membersPath", e.membersPath());
        } else if (event instanceof ModelPublished e) {
            paths.put("manifestPath", e.manifestPath());
            paths.put("sourceDir", e.sourceDir());
        } else if (event instanceof ArchivePublished e) {
            paths.put("archivePath", e.archivePath());
        }
        return paths;
    }

    private static Optional<String> shapeProblem(String path) {
        if (path.indexOf('\0') >= 0) {
            return Optional.of("holds a NUL");
        }
        if (!path.startsWith("/")) {
            return Optional.of("is not absolute");
        }
        for (String segment : path.substring(1).split("/", -1)) {
            if (segment.equals("..") || segment.equals(".")) {
                return Optional.of("has a " + segment + " segment");
            }
        }
        try {
            Path.of(path);
        } catch (InvalidPathException e) {
            return Optional.of("is not a valid path");
        }
        return Optional.empty();
    }

    private static boolean strictlyUnder(Path file, Path root) {
        return file.startsWith(root) && !file.equals(root);
    }

    private static boolean under(Path file, Path root) {
        return file.startsWith(root);
    }

    private List<Path> realRoots() {
        List<Path> real = new ArrayList<>();
        for (Path root : roots) {
            real.add(realPath(root).orElse(root));
        }
        return real;
    }

    /** The path with every symlink resolved; a missing tail is kept as written below its nearest existing ancestor. */
    private static Optional<Path> realPath(Path path) {
        Path existing = path;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return Optional.of(path);
        }
        try {
            return Optional.of(existing.toRealPath().resolve(existing.relativize(path)).normalize());
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
