package io.stowage.cli;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/** Checks of the user's input that every command words the same way (exit 2 on failure). */
public final class Inputs {
    private Inputs() {
    }

    /**
     * @param what how the message names the directory, e.g. "dataset directory"
     * @throws CliException (exit 2) saying whether {@code dir} is missing, not a directory, or unreadable
     */
    public static void requireReadableDirectory(String what, Path dir) {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new CliException(CliException.USAGE, what + " " + dir + " does not exist");
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new CliException(CliException.USAGE, what + " " + dir + " is not a directory");
        }
        if (!Files.isReadable(dir)) {
            throw new CliException(CliException.USAGE, what + " " + dir + " is not readable");
        }
    }

    /** @return e.g. "1 shard", "4 shards" */
    public static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
