package io.stowage.cli;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The issue's bad names in every name option of {@code checkpoint publish}, {@code checkpoint fetch} and
 * {@code dataset shard}: exit 2 and one line naming the option, before any session is read (there is none
 * here: a command that went further would fail with another message).
 */
class NameArgumentsTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"a+b", "a b", "x//y", "/lead", "naïve café", "100%"})
    void everyNameOptionRefusesTheIssuesExamplesWithExitCode2AndOneLine(String bad) throws Exception {
        Path step = Files.createDirectories(tmp.resolve("step-1"));
        Files.writeString(step.resolve("model.pt"), "abc");
        String d = step.toString();
        String to = tmp.resolve("to").toString();
        assertRefused("--experiment", bad, "checkpoint", "publish", d, "--experiment", bad, "--run", "r", "--step", "1");
        assertRefused("--run", bad, "checkpoint", "publish", d, "--experiment", "e", "--run", bad, "--step", "1");
        assertRefused("--tag", bad, "checkpoint", "publish", d, "--experiment", "e", "--run", "r", "--tag", bad);
        assertRefused("--experiment", bad, "checkpoint", "fetch", "--experiment", bad, "--run", "r", "--latest", "--to", to);
        assertRefused("--run", bad, "checkpoint", "fetch", "--experiment", "e", "--run", bad, "--step", "1", "--to", to);
        assertRefused("--name", bad, "dataset", "shard", d, "--name", bad, "--revision", "r1");
        assertRefused("--revision", bad, "dataset", "shard", d, "--name", "speech", "--revision", bad);
        assertThat(tmp.resolve("to")).doesNotExist();
    }

    private static void assertRefused(String option, String bad, String... args) {
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = StowageCli.execute(args);
        } finally {
            System.setErr(saved);
        }
        String printed = err.toString(StandardCharsets.UTF_8);
        assertThat(code).as(String.join(" ", args)).isEqualTo(CliException.USAGE);
        assertThat(printed).as(String.join(" ", args))
                .startsWith("stowage: " + option + " '" + bad + "' is not a valid name: use only ASCII letters, digits,"
                        + " '.', '_' and '-' (")
                .endsWith("is not allowed)" + System.lineSeparator())
                .hasLineCount(1);
    }
}
