package io.stowage.cli.checkpoint;

import io.stowage.cli.CliException;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Validation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the keys listed under a run's prefix ({@code checkpoints/<E>/<R>/}) and produces the files
 * of one stored step: each key {@code checkpoints/<E>/<R>/<12-digit step>/<sha256>/<path>} becomes
 * a {@link StoredFile}. Other keys under the prefix (such as {@code latest.json}) are ignored.
 *
 * @param step  the step number
 * @param files the step's files, sorted by path
 */
public record StoredCheckpoint(long step, List<StoredFile> files) {
    private static final Pattern FILE_KEY = Pattern.compile("(\\d{" + ObjectKeys.STEP_DIGITS + "})/([0-9a-f]{64})/(.+)");

    /**
     * One stored file of a step.
     *
     * @param key    the object key
     * @param sha256 the SHA-256 its key names, 64 lower-case hex digits
     * @param path   its path inside the step directory, '/'-separated, every segment valid
     */
    public record StoredFile(String key, String sha256, String path) {
    }

    /**
     * @param runPrefix {@code checkpoints/<E>/<R>/}
     * @param keys      every key listed under it
     * @param step      the step wanted, or null for the highest step present
     * @return the step's files; empty when the step (or, for null, any step) is not stored
     * @throws CliException (exit 1) when a path is unsafe or two objects claim the same path
     */
    public static java.util.Optional<StoredCheckpoint> select(String runPrefix, List<String> keys, Long step) {
        TreeMap<String, List<StoredFile>> bySteps = new TreeMap<>();
        for (String key : keys) {
            if (!key.startsWith(runPrefix)) {
                continue;
            }
            Matcher m = FILE_KEY.matcher(key.substring(runPrefix.length()));
            if (m.matches()) {
                bySteps.computeIfAbsent(m.group(1), s -> new ArrayList<>()).add(new StoredFile(key, m.group(2), m.group(3)));
            }
        }
        Map.Entry<String, List<StoredFile>> chosen = step == null ? bySteps.lastEntry()
                : bySteps.floorEntry(ObjectKeys.paddedStep(step));
        if (chosen == null || (step != null && !chosen.getKey().equals(ObjectKeys.paddedStep(step)))) {
            return java.util.Optional.empty();
        }
        List<StoredFile> files = new ArrayList<>(chosen.getValue());
        files.sort((a, b) -> a.path().compareTo(b.path()));
        for (int i = 0; i < files.size(); i++) {
            requireSafePath(files.get(i));
            if (i > 0 && files.get(i).path().equals(files.get(i - 1).path())) {
                throw new CliException(CliException.FAILED, "step " + chosen.getKey() + " holds two objects for "
                        + files.get(i).path() + ": " + files.get(i - 1).key() + " and " + files.get(i).key());
            }
        }
        return java.util.Optional.of(new StoredCheckpoint(Long.parseLong(chosen.getKey()), Collections.unmodifiableList(files)));
    }

    private static void requireSafePath(StoredFile file) {
        for (String segment : file.path().split("/", -1)) {
            if (!Validation.isSegment(segment)) {
                throw new CliException(CliException.FAILED, "refusing stored key with an unsafe path: " + file.key());
            }
        }
    }
}
