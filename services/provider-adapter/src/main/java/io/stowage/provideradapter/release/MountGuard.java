package io.stowage.provideradapter.release;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds mount points at or under a directory before a release touches it, in two ways: a directory whose device id
 * ({@code unix:dev}) differs from the target's (another filesystem mounted there), and an entry of the mount table
 * ({@code /proc/self/mountinfo}) at or under the target, which also catches a bind mount of the same filesystem
 * (same device id). Either refuses the release: deleting under a mount point would delete another volume's files.
 */
public final class MountGuard {
    /** Device id of a path, not following a symlink at its end. */
    @FunctionalInterface
    public interface DeviceLookup {
        /** @return an id equal for two paths exactly when they are on the same device */
        Object device(Path path) throws IOException;
    }

    /** Where the mount points are listed. */
    @FunctionalInterface
    public interface MountTable {
        /** @return every mount point, absolute; empty when the platform has no table to read */
        List<Path> mountPoints() throws IOException;
    }

    /** {@code unix:dev} of the path itself. */
    public static final DeviceLookup UNIX_DEV = path -> Files.getAttribute(path, "unix:dev", LinkOption.NOFOLLOW_LINKS);

    /** Field 5 of each line of {@code /proc/self/mountinfo} (octal escapes decoded); empty where there is no such file. */
    public static final MountTable PROC_MOUNTINFO = () -> {
        Path table = Path.of("/proc/self/mountinfo");
        if (!Files.isReadable(table)) {
            return List.of();
        }
        List<Path> points = new ArrayList<>();
        for (String line : Files.readAllLines(table, StandardCharsets.UTF_8)) {
            String[] fields = line.split(" ");
            if (fields.length > 4) {
                points.add(Path.of(unescape(fields[4])));
            }
        }
        return points;
    };

    private static final int MAX_NAMED = 10;

    private final DeviceLookup devices;
    private final MountTable table;

    public MountGuard(DeviceLookup devices, MountTable table) {
        this.devices = devices;
        this.table = table;
    }

    /** @return the guard on {@code unix:dev} and {@code /proc/self/mountinfo} */
    public static MountGuard system() {
        return new MountGuard(UNIX_DEV, PROC_MOUNTINFO);
    }

    /**
     * @param dir an existing directory reached through no symlink (its real path)
     * @return one line naming the mount points at or under {@code dir}, empty when there is none
     */
    public Optional<String> problem(Path dir) {
        try {
            Map<String, String> byPath = new LinkedHashMap<>(byDevice(dir));
            for (Path point : table.mountPoints()) {
                if (point.startsWith(dir)) {
                    String rel = dir.relativize(point).toString();
                    byPath.putIfAbsent(rel, (rel.isEmpty() ? "the directory itself" : rel) + " (in the mount table)");
                }
            }
            List<String> found = new ArrayList<>(byPath.values());
            if (found.isEmpty()) {
                return Optional.empty();
            }
            String line = String.join(", ", found.stream().limit(MAX_NAMED).toList())
                    + (found.size() > MAX_NAMED ? " and " + (found.size() - MAX_NAMED) + " more" : "");
            return Optional.of("mount-point: " + dir + " holds " + found.size() + " mount point(s): " + line);
        } catch (IOException e) {
            return Optional.of("mount-point: cannot tell whether " + dir + " holds a mount point: " + e.getMessage());
        }
    }

    private Map<String, String> byDevice(Path dir) throws IOException {
        Object device = devices.device(dir);
        Map<String, String> found = new LinkedHashMap<>();
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path sub, BasicFileAttributes attrs) throws IOException {
                if (!Objects.equals(device, devices.device(sub))) {
                    String rel = dir.relativize(sub).toString();
                    found.put(rel, rel + " (device " + devices.device(sub) + ", not " + device + ")");
                    return FileVisitResult.SKIP_SUBTREE;
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return found;
    }

    private static String unescape(String field) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 3 < field.length() && field.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
