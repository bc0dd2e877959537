package io.stowage.stack;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Command-line entry point: consumes a work directory, starts an {@link EmbeddedStack} in it, writes the
 * endpoints to {@code <dir>/stack.json} (owner-only permissions) and prints one line; runs until the process
 * is terminated, when a shutdown hook stops the servers.
 */
public final class StackMain {
    private StackMain() {
    }

    /**
     * @param args {@code [0]}: the work directory (created if missing; data of an earlier run there is kept)
     * @throws Exception when the stack cannot start (exit code 1 with the reason)
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: java io.stowage.stack.StackMain <work-dir>");
            System.exit(2);
        }
        Path dir = Path.of(args[0]).toAbsolutePath();
        long started = System.nanoTime();
        EmbeddedStack stack = EmbeddedStack.start(dir);
        Path file = dir.resolve("stack.json");
        stack.endpoints().writeTo(file);
        System.out.println("stowage stack up in " + (System.nanoTime() - started) / 1_000_000 + " ms: "
                + stack.endpoints() + "; endpoints in " + file);
        new CountDownLatch(1).await();
    }
}
