package io.stowage.cli.platform;

import io.stowage.cli.CliException;
import io.stowage.cli.client.BearerToken;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The tokens file of a {@code stowage up}: {@code $STOWAGE_HOME/tokens/hashes}, one {@code <role>:<name>:<sha256-hex>
 * [:<expires-at>]} line per token ({@code #} comments allowed), which every service it starts reads as
 * {@code stowage.auth.tokens-file} (env {@code STOWAGE_AUTH_TOKENS_FILE}) and re-reads within about a second of a
 * change. Written only whole: a temporary file (mode 600) renamed over it, under a lock file, so a service never
 * sees half a file and two writers never lose each other's line. A token is revoked by removing its line.
 */
public final class TokensFile {
    /** File name under {@code $STOWAGE_HOME/tokens/}. */
    public static final String NAME = "hashes";
    /** The names {@code stowage up} gives its own session tokens (replaced at every start). */
    public static final List<String> SESSION_NAMES = List.of("cli-operator", "cli-reader", "services");

    /**
     * One token line as the file holds it.
     *
     * @param role      {@code reader} or {@code operator} (as written; the services check it)
     * @param name      who holds it
     * @param expiresAt the first instant it is refused, or null
     * @param text      the line as written
     */
    public record Line(String role, String name, Instant expiresAt, String text) {
        /** @return the line, or empty for a comment, a blank line or a line too broken to name a token */
        public static Optional<Line> parse(String text) {
            String stripped = text.strip();
            if (stripped.isEmpty() || stripped.startsWith("#")) {
                return Optional.empty();
            }
            String[] parts = stripped.split(":", 4);
            if (parts.length < 3) {
                return Optional.empty();
            }
            Instant expires = null;
            if (parts.length == 4) {
                try {
                    expires = Instant.parse(parts[3].strip());
                } catch (DateTimeParseException e) {
                    expires = null;
                }
            }
            return Optional.of(new Line(parts[0], parts[1], expires, stripped));
        }
    }

    private final Path file;

    /** @param file the tokens file, e.g. {@link #of(StowageHome)} */
    public TokensFile(Path file) {
        this.file = file;
    }

    /** @return {@code $STOWAGE_HOME/tokens/hashes} */
    public static TokensFile of(StowageHome home) {
        return new TokensFile(BearerToken.directory(home).resolve(NAME));
    }

    /** @return the file's path */
    public Path path() {
        return file;
    }

    /** @return true when the file exists */
    public boolean exists() {
        return Files.isRegularFile(file);
    }

    /**
     * @return the token lines, in file order (comments skipped)
     * @throws CliException (exit 1) when the file cannot be read
     */
    public List<Line> lines() {
        return rawLines().stream().map(Line::parse).flatMap(Optional::stream).toList();
    }

    /**
     * Replaces the file's lines with {@code change} applied to them (comments included), whole and atomically, under
     * the lock; a missing file starts empty.
     *
     * @throws CliException (exit 1) when it cannot be written
     */
    public void update(UnaryOperator<List<String>> change) {
        try {
            Files.createDirectories(file.getParent());
            Path lock = file.resolveSibling(NAME + ".lock");
            try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock held = channel.lock()) {
                write(change.apply(new ArrayList<>(Files.isRegularFile(file) ? rawLines() : List.of())));
            }
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Puts a session's own lines in place of the previous session's ({@link #SESSION_NAMES}), keeping every other
     * token line (those of {@code stowage token create}) and comment.
     *
     * @param sessionLines the new session's hash lines
     */
    public void replaceSession(List<String> sessionLines) {
        update(lines -> {
            List<String> kept = new ArrayList<>(lines.stream()
                    .filter(l -> Line.parse(l).map(t -> !SESSION_NAMES.contains(t.name())).orElse(true)).toList());
            if (kept.isEmpty()) {
                kept.add("# tokens the services of stowage up accept (docs/security/tokens.md); hashes only, re-read on change");
            }
            kept.addAll(sessionLines);
            return kept;
        });
    }

    private List<String> rawLines() {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private void write(List<String> lines) throws IOException {
        Path tmp = file.resolveSibling(NAME + ".tmp");
        Files.deleteIfExists(tmp);
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(tmp);
        }
        StringBuilder text = new StringBuilder();
        lines.forEach(line -> text.append(line).append('\n'));
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)));
            channel.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
