package io.stowage.cli.client;

import io.stowage.cli.CliException;
import io.stowage.cli.platform.StowageHome;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Which bearer token the CLI presents to the services (docs/security/tokens.md), first found wins:
 * the token of a session this process started itself ({@code stowage demo}, {@link #useSession}); env
 * {@code STOWAGE_TOKEN}; the file named by env {@code STOWAGE_TOKEN_FILE}; the system property
 * {@code stowage.token} (in-process tests); {@code $STOWAGE_HOME/tokens/operator.token}, written by
 * {@code stowage up}/{@code demo}. The token is never printed or logged.
 */
public final class BearerToken {
    /** File name of the operator token under {@code $STOWAGE_HOME/tokens/}. */
    public static final String OPERATOR_FILE = "operator.token";
    /** File name of the reader token under {@code $STOWAGE_HOME/tokens/}. */
    public static final String READER_FILE = "reader.token";

    private static volatile String session;

    private BearerToken() {
    }

    /**
     * Makes this process present the operator token of the session it started ({@code stowage demo} runs its own
     * services, so no other token can be meant).
     *
     * @param tokens the session's token directory ({@code <work>/tokens})
     * @throws CliException (exit 1) when the operator token file is missing
     */
    public static void useSession(Path tokens) {
        session = read(tokens.resolve(OPERATOR_FILE)).orElseThrow(() -> new CliException(CliException.FAILED,
                "the session's operator token is missing: " + tokens.resolve(OPERATOR_FILE)));
    }

    /**
     * @return the token, or empty when none is set (the services then answer 401)
     * @throws CliException (exit 2) when {@code STOWAGE_TOKEN_FILE} names a file that cannot be read
     */
    public static Optional<String> resolve() {
        return explicit().or(() -> read(directory(StowageHome.fromEnvironment()).resolve(OPERATOR_FILE)));
    }

    /**
     * The token of a command that only reads ({@code stowage evidence export}): the same order as {@link #resolve()},
     * except that the last fallback is {@code $STOWAGE_HOME/tokens/reader.token}, never the operator's.
     *
     * @return the token, or empty when none is set
     * @throws CliException (exit 2) when {@code STOWAGE_TOKEN_FILE} names a file that cannot be read
     */
    public static Optional<String> resolveReader() {
        return explicit().or(() -> read(directory(StowageHome.fromEnvironment()).resolve(READER_FILE)));
    }

    private static Optional<String> explicit() {
        if (session != null) {
            return Optional.of(session);
        }
        String env = System.getenv("STOWAGE_TOKEN");
        if (env != null && !env.isBlank()) {
            return Optional.of(env.strip());
        }
        String file = System.getenv("STOWAGE_TOKEN_FILE");
        if (file != null && !file.isBlank()) {
            return Optional.of(read(Path.of(file)).orElseThrow(() -> new CliException(CliException.USAGE,
                    "STOWAGE_TOKEN_FILE " + file + " cannot be read")));
        }
        String property = System.getProperty("stowage.token");
        if (property != null && !property.isBlank()) {
            return Optional.of(property.strip());
        }
        return Optional.empty();
    }

    /** @return {@code $STOWAGE_HOME/tokens}, where {@code stowage up} writes the session's tokens (mode 600) */
    public static Path directory(StowageHome home) {
        return home.root().resolve("tokens");
    }

    private static Optional<String> read(Path file) {
        try {
            String token = Files.readString(file, StandardCharsets.UTF_8).strip();
            return token.isEmpty() ? Optional.empty() : Optional.of(token);
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
