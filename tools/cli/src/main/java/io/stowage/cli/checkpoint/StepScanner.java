package io.stowage.cli.checkpoint;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the direct children of a run directory and produces the step directories that are complete
 * and not yet published. Complete means either a directory named {@code step-<N>} (which training
 * renames into place from a temporary name, as {@code examples/pytorch/train.py} does) or a
 * directory holding the commit marker {@value #MARKER} (its step is the number its name ends with,
 * e.g. {@code checkpoint-500}). Names starting with {@code .} are in progress and never count;
 * symlinks and plain files never count.
 */
public final class StepScanner {
    /** The commit marker file: a directory holding it is complete. */
    public static final String MARKER = ".stowage-complete";
    private static final Pattern RENAMED = Pattern.compile("step-(\\d{1,18})");
    private static final Pattern TRAILING_NUMBER = Pattern.compile(".*?(\\d{1,18})");

    /**
     * A complete step directory.
     *
     * @param step the step number
     * @param dir  the directory (absolute)
     */
    public record Step(long step, Path dir) {
    }

    /**
     * The outcome of one scan.
     *
     * @param ready   complete, unpublished steps, ascending by step
     * @param skipped one line per complete directory that cannot be published (no step number, a step claimed twice)
     */
    public record Scan(List<Step> ready, List<String> skipped) {
    }

    private StepScanner() {
    }

    /**
     * @param root the run directory
     * @return the step number of the in-progress directory with the highest number (a child whose name starts with
     *         {@code .} and ends with digits, such as {@code .tmp-step-000000000400}), or null when there is none or
     *         the root cannot be listed
     */
    public static Long inProgress(Path root) {
        Long highest = null;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            for (Path child : entries) {
                String name = child.getFileName().toString();
                Matcher numbered = TRAILING_NUMBER.matcher(name);
                if (name.startsWith(".") && numbered.matches() && Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS)) {
                    long step = Long.parseLong(numbered.group(1));
                    highest = highest == null || step > highest ? step : highest;
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return highest;
    }

    /**
     * @param root      the run directory
     * @param published steps already published (from the watch state)
     * @throws IOException when {@code root} cannot be listed
     */
    public static Scan scan(Path root, Set<Long> published) throws IOException {
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            entries.forEach(children::add);
        }
        children.sort(Comparator.comparing(p -> p.getFileName().toString()));
        TreeMap<Long, Step> ready = new TreeMap<>();
        List<String> skipped = new ArrayList<>();
        for (Path child : children) {
            String name = child.getFileName().toString();
            if (name.startsWith(".") || !Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            Matcher renamed = RENAMED.matcher(name);
            boolean marked = Files.isRegularFile(child.resolve(MARKER), LinkOption.NOFOLLOW_LINKS);
            Matcher numbered = TRAILING_NUMBER.matcher(name);
            Long step = renamed.matches() ? Long.valueOf(renamed.group(1))
                    : marked && numbered.matches() ? Long.valueOf(numbered.group(1)) : null;
            if (step == null) {
                if (marked) {
                    skipped.add(child + " holds " + MARKER + " but its name ends in no step number");
                }
                continue;
            }
            if (published.contains(step)) {
                continue;
            }
            Step previous = ready.putIfAbsent(step, new Step(step, child.toAbsolutePath().normalize()));
            if (previous != null) {
                skipped.add(child + " claims step " + step + ", already taken by " + previous.dir());
            }
        }
        return new Scan(List.copyOf(ready.values()), List.copyOf(skipped));
    }
}
