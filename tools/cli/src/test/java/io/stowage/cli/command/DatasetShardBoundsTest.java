package io.stowage.cli.command;

import io.stowage.cli.StowageCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code stowage dataset shard --shard-bytes} outside 1–4 GiB is refused by the CLI itself, before any session or
 * service is needed, naming the CLI's flag (a new-user trial found the API's field name in the message).
 */
class DatasetShardBoundsTest {
    @TempDir
    Path work;

    @Test
    void aSmallShardSizeWithoutTheFlagIsBadInputNamingTheFlag() throws IOException {
        Path data = Files.createDirectories(work.resolve("data"));
        Files.writeString(data.resolve("a.txt"), "a");
        Run run = run("dataset", "shard", data.toString(), "--name", "d", "--revision", "r1", "--shard-bytes", "300000");
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err().strip()).isEqualTo("stowage: --shard-bytes 300000 is outside the production bounds of 1-4 GiB"
                + " (1073741824-4294967296 bytes); add --allow-small-shards for tests and demos");
    }

    @Test
    void theBoundsThemselvesAndTheFlagPass() {
        DatasetCommand.Shard.requireProductionBounds(null, false);
        DatasetCommand.Shard.requireProductionBounds(1L << 30, false);
        DatasetCommand.Shard.requireProductionBounds(4L << 30, false);
        DatasetCommand.Shard.requireProductionBounds(300_000L, true);
        Run over = run("dataset", "shard", work.toString(), "--name", "d", "--revision", "r1",
                "--shard-bytes", String.valueOf((4L << 30) + 1));
        assertThat(over.code()).isEqualTo(2);
        Run zero = run("dataset", "shard", work.toString(), "--name", "d", "--revision", "r1", "--shard-bytes", "0",
                "--allow-small-shards");
        assertThat(zero.code()).isEqualTo(2);
        assertThat(zero.err()).contains("--shard-bytes must be a positive number of bytes, not 0");
    }

    private record Run(int code, String err) {
    }

    private Run run(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream savedErr = System.err;
        String savedHome = System.getProperty("stowage.home");
        int code;
        try {
            System.setProperty("stowage.home", work.resolve("home").toString());
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = StowageCli.execute(args);
        } finally {
            System.setErr(savedErr);
            if (savedHome == null) {
                System.clearProperty("stowage.home");
            } else {
                System.setProperty("stowage.home", savedHome);
            }
        }
        return new Run(code, err.toString(StandardCharsets.UTF_8));
    }
}
