package io.stowage.cli.command;

import io.stowage.cli.StowageCli;
import io.stowage.cli.platform.Session;
import io.stowage.stack.StackEndpoints;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code stowage watch}'s refusals before it contacts anything: a root that is a file is refused even while the
 * watch would wait; {@code --once} does not wait for a missing root; no stack is said at once, not after waiting.
 * (Waiting for a missing root and publishing is {@code WatchSidecarEndToEndTest}.)
 */
class WatchCommandTest {
    @TempDir
    Path home;

    private void session() throws Exception {
        StackEndpoints nowhere = new StackEndpoints("127.0.0.1:1", "http://127.0.0.1:1", "us-east-1", "k", "s", "p", "r",
                "jdbc:postgresql://127.0.0.1:1/x", "postgresql://127.0.0.1:1/x", "u", "p");
        new Session(nowhere, Map.of(), home.resolve("staging").toString(), List.of(), ProcessHandle.current().pid())
                .writeTo(home.resolve("session.json"));
    }

    @Test
    void aRootThatIsAFileIsRefusedInsteadOfWaitedFor() throws Exception {
        session();
        Path file = Files.writeString(home.resolve("not-a-dir"), "x");

        Run run = run("watch", file.toString(), "--experiment", "e", "--run", "r", "--interval", "1");

        assertThat(run.code).isEqualTo(2);
        assertThat(run.err.strip()).isEqualTo("stowage: watch root " + file + " is not a directory");
    }

    @Test
    void onceDoesNotWaitForAMissingRoot() throws Exception {
        session();
        Path missing = home.resolve("missing");

        Run run = run("watch", missing.toString(), "--experiment", "e", "--run", "r", "--once");

        assertThat(run.code).isEqualTo(2);
        assertThat(run.err.strip()).isEqualTo("stowage: watch root " + missing + " does not exist");
    }

    @Test
    void withoutAStackTheWatchSaysSoAtOnceInsteadOfWaitingForTheRoot() {
        Run run = run("watch", home.resolve("missing").toString(), "--experiment", "e", "--run", "r");

        assertThat(run.code).isEqualTo(1);
        assertThat(run.err).contains("Stowage is not running").doesNotContain("waiting for");
    }

    private record Run(int code, String out, String err) {
    }

    private Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        int code;
        try {
            System.setProperty("stowage.home", home.toString());
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = StowageCli.execute(args);
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
            System.clearProperty("stowage.home");
        }
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
