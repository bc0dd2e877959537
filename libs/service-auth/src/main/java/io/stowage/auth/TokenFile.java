package io.stowage.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The tokens file ({@code stowage.auth.tokens-file}) as it is now: one {@link TokenEntry} line per line, {@code #}
 * comments and blank lines skipped. {@link #current()} looks at the file's modification time, size and identity
 * (inode) at most once per interval and re-reads it when any changed, so a line appended (or removed) takes effect
 * within about one interval without a restart. A file that becomes unreadable or malformed is not half-applied: every
 * token from it is refused ({@link Contents#problem()}) until a good version is in place, and one line is logged naming
 * the line number, never its content. Thread-safe: readers see one immutable {@link Contents}; the check is
 * serialised. Pure Java.
 */
public final class TokenFile {
    /**
     * What the file holds now.
     *
     * @param entries the tokens it holds; empty while it has a problem
     * @param problem null, or why every token from the file is refused (e.g. {@code <file> line 7: the third field …})
     */
    public record Contents(List<TokenEntry> entries, String problem) {
        public Contents {
            entries = List.copyOf(entries);
        }
    }

    private record Stamp(Object key, FileTime modified, long size) {
        static final Stamp MISSING = new Stamp(null, null, -1);
    }

    private final Path path;
    private final Clock clock;
    private final Duration interval;
    private final Consumer<String> log;
    private final Consumer<String> warn;
    private volatile Contents contents;
    private volatile Instant nextCheck;
    private Stamp stamp; // guarded by this

    private TokenFile(Path path, Clock clock, Duration interval, Consumer<String> log, Consumer<String> warn, Stamp stamp,
                      Contents contents) {
        this.path = path;
        this.warn = warn;
        this.clock = clock;
        this.interval = interval;
        this.log = log;
        this.stamp = stamp;
        this.contents = contents;
        this.nextCheck = clock.instant().plus(interval);
    }

    /**
     * Reads the file once, strictly: at start-up a missing or malformed file is an error, so a mistake is seen at once.
     *
     * @param interval how often {@link #current()} may look at the file (the services use 1 s)
     * @param log      where a reload is reported, one line each (names and roles, never a hash or a token)
     * @param warn     where a problem is reported, one line per bad version of the file (its line number, never content)
     * @throws IllegalArgumentException naming the line number of a malformed line (never its content)
     * @throws UncheckedIOException     when the file cannot be read
     */
    public static TokenFile open(Path path, Clock clock, Duration interval, Consumer<String> log, Consumer<String> warn) {
        try {
            Stamp stamp = stampOf(path);
            return new TokenFile(path, clock, interval, log, warn, stamp, new Contents(parse(path, Files.readAllLines(path)), null));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read stowage.auth.tokens-file " + path + ": " + e.getMessage(), e);
        }
    }

    /** @return the file's contents as of the last look, looking again first when an interval has passed */
    public Contents current() {
        Instant now = clock.instant();
        if (!now.isBefore(nextCheck)) {
            refresh(now);
        }
        return contents;
    }

    /** @return the file this reads */
    public Path path() {
        return path;
    }

    private synchronized void refresh(Instant now) {
        if (now.isBefore(nextCheck)) {
            return;
        }
        nextCheck = now.plus(interval);
        Stamp seen;
        try {
            seen = stampOf(path);
        } catch (IOException e) {
            seen = Stamp.MISSING;
        }
        if (seen.equals(stamp)) {
            return;
        }
        stamp = seen;
        contents = load(seen);
    }

    private Contents load(Stamp seen) {
        try {
            if (seen == Stamp.MISSING) {
                throw new NoSuchFileException(path.toString());
            }
            List<TokenEntry> entries = parse(path, Files.readAllLines(path));
            log.accept("tokens file " + path + " re-read: " + entries.size() + " token(s) ("
                    + String.join(", ", entries.stream().map(TokenEntry::label).toList()) + ")");
            return new Contents(entries, null);
        } catch (IllegalArgumentException e) {
            return refuseAll(e.getMessage());
        } catch (IOException | UncheckedIOException e) {
            return refuseAll("cannot read " + path + " (" + e.getClass().getSimpleName() + ")");
        }
    }

    private Contents refuseAll(String problem) {
        warn.accept(problem + "; every token from this file is refused until it is fixed");
        return new Contents(List.of(), problem);
    }

    /**
     * @param lines the file's lines
     * @return the entries, in file order
     * @throws IllegalArgumentException {@code <file> line N: <what is wrong>}, for a malformed line or a hash that an
     *                                  earlier line already holds
     */
    static List<TokenEntry> parse(Path file, List<String> lines) {
        List<TokenEntry> entries = new ArrayList<>();
        Map<String, Integer> lineOfHash = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            TokenEntry entry;
            try {
                entry = TokenEntry.parse(line);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": " + e.getMessage(), e);
            }
            Integer earlier = lineOfHash.putIfAbsent(HexFormat.of().formatHex(entry.sha256()), i + 1);
            if (earlier != null) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": the same hash as line " + earlier);
            }
            entries.add(entry);
        }
        return entries;
    }

    private static Stamp stampOf(Path path) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
        return new Stamp(attributes.fileKey(), attributes.lastModifiedTime(), attributes.size());
    }
}
