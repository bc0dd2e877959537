package io.stowage.cli.command;

import io.stowage.cli.CliRun;
import io.stowage.cli.platform.Session;
import io.stowage.stack.StackEndpoints;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code stowage down} without a running {@code stowage up}: nothing running is not an error, a session whose pid
 * belongs to another program is refused and that program is not signalled. (Stopping a real {@code up} is in
 * {@code UpKilledEndToEndTest}.)
 */
class DownCommandTest {
    private static final StackEndpoints STACK = new StackEndpoints("127.0.0.1:9092", "http://127.0.0.1:9000", "us-east-1",
            "ACCESS", "SECRET", "stowage-primary", "stowage-replica", "jdbc:postgresql://127.0.0.1:5432/stowage",
            "postgresql://127.0.0.1:5432/stowage", "stowage", "PG");

    @TempDir
    Path home;
    private Process other;

    @AfterEach
    void stopOther() {
        if (other != null) {
            other.destroyForcibly();
        }
    }

    @Test
    void withNoSessionThereIsNothingToStop() {
        CliRun.Result text = CliRun.runWithHome(home, "down");
        CliRun.Result json = CliRun.runWithHome(home, "down", "--json");

        assertThat(text.exit()).isZero();
        assertThat(text.out()).contains("Stowage is not running for " + home, "nothing to stop");
        assertThat(json.exit()).isZero();
        assertThat(json.out()).contains("\"running\":false", "\"stopped\":false");
    }

    @Test
    void aSessionLeftByAnEndedUpIsReportedAndKept() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        write(ended.pid());

        CliRun.Result result = CliRun.runWithHome(home, "down");

        assertThat(result.exit()).isZero();
        assertThat(result.out()).contains("left by an 'up' that has ended", "nothing to stop");
        assertThat(home.resolve("session.json")).exists();
    }

    @Test
    void aPidThatIsNotAStowageUpIsNotSignalled() throws Exception {
        other = new ProcessBuilder("sleep", "60").start();
        write(other.pid());

        CliRun.Result result = CliRun.runWithHome(home, "down");
        CliRun.Result dryRun = CliRun.runWithHome(home, "down", "--dry-run");

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err()).contains("pid " + other.pid(), "is not a 'stowage up'", "nothing signalled");
        assertThat(dryRun.exit()).isEqualTo(1);
        Thread.sleep(300);
        assertThat(other.isAlive()).as("the other program still runs").isTrue();
    }

    @Test
    void aTimeoutOfZeroIsAUsageError() {
        CliRun.Result result = CliRun.runWithHome(home, "down", "--timeout", "0");

        assertThat(result.exit()).isEqualTo(2);
        assertThat(result.err()).contains("--timeout must be above zero");
    }

    private void write(long pid) throws Exception {
        new Session(STACK, Map.of("ledger", "http://127.0.0.1:1"), home.resolve("staging").toString(), List.of(), pid)
                .writeTo(home.resolve("session.json"));
    }
}
