package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad input refused before anything is asked of a service (no stack here): every duration option, through the one
 * converter, and a checkpoint directory that does not exist. Each is one line on standard error and exit 2.
 */
class CommandLineEdgesTest {
    private static final String FORMS = "use a whole number with s, m, h or d (e.g. 90m, 2h, 1d), 0 for none, or ISO-8601"
            + " (e.g. PT2H, P7D)";

    @TempDir
    Path tmp;

    @Test
    void everyDurationOptionRefusesAnUnreadableValueInOneLineNamingTheAcceptedForms() {
        List<List<String>> commands = List.of(
                List.of("retention", "plan", "--experiment", "e", "--run", "r", "--temporary-ttl", "7days"),
                List.of("retention", "apply", "--experiment", "e", "--run", "r", "--temporary-ttl", "7days"),
                List.of("retention", "plan", "--experiment", "e", "--run", "r", "--cold-after", "7days"),
                List.of("status", "--period", "7days"),
                List.of("volume", "create", "--size", "1GB", "--ttl", "7days"),
                List.of("volume", "destroy", "vol-1", "--wait", "7days"),
                List.of("pod", "create", "--ttl", "7days"),
                List.of("run", "cap", "run-1", "--max-time", "7days"),
                List.of("run", "stop", tmp.toString(), "--experiment", "e", "--run", "r", "--grace", "7days"),
                List.of("watch", tmp.toString(), "--experiment", "e", "--run", "r", "--stop-grace", "7days"),
                List.of("audit", "lifecycle", "--resume-window", "7days"));
        for (List<String> args : commands) {
            CliRun.Result run = CliRun.run(args.toArray(String[]::new));

            String option = args.get(args.size() - 2);
            assertThat(run.exit()).as(String.join(" ", args)).isEqualTo(CliException.USAGE);
            assertThat(run.err()).as(String.join(" ", args)).hasLineCount(1)
                    .startsWith("stowage: Invalid value for option '" + option + "': '7days' is not a duration: " + FORMS)
                    .doesNotContain("Text cannot be parsed").doesNotContain("Exception");
        }
    }

    @Test
    void theExpiryOfPresignAndShareIsReadByTheSameRule() {
        for (List<String> args : List.of(List.of("presign", "models/m/r/model.pt", "--expires", "7days"),
                List.of("model", "share", "--model", "m", "--revision", "r", "--expires", "7days"))) {
            CliRun.Result run = CliRun.run(args.toArray(String[]::new));

            assertThat(run.exit()).as(String.join(" ", args)).isEqualTo(CliException.USAGE);
            assertThat(run.err()).isEqualTo("stowage: --expires '7days' is not a duration: " + FORMS + "\n");
        }
    }

    @Test
    void theAcceptedFormsAreRead() {
        assertThat(io.stowage.cli.ResourceUnits.duration("90m")).hasMinutes(90);
        assertThat(io.stowage.cli.ResourceUnits.duration("2h")).hasHours(2);
        assertThat(io.stowage.cli.ResourceUnits.duration("1d")).hasDays(1);
        assertThat(io.stowage.cli.ResourceUnits.duration("P7D")).hasDays(7);
        assertThat(io.stowage.cli.ResourceUnits.duration("0")).isZero();
        CliRun.Result negative = CliRun.run("status", "--period", "PT-1H");
        assertThat(negative.exit()).isEqualTo(CliException.USAGE);
        assertThat(negative.err()).contains("'PT-1H' is negative: " + FORMS);
    }

    @Test
    void publishingADirectoryThatDoesNotExistSaysSo() {
        Path missing = tmp.resolve("nosuchdir");

        CliRun.Result run = CliRun.run("checkpoint", "publish", missing.toString(), "--experiment", "e", "--run", "r");

        assertThat(run.exit()).isEqualTo(CliException.USAGE);
        assertThat(run.err()).isEqualTo("stowage: checkpoint directory " + missing + " does not exist\n");
    }

    @Test
    void everyAmountOptionRefusesWhatIsNotAPlainNonNegativeNumberInOneLine() {
        List<List<String>> commands = List.of(
                List.of("run", "cap", "run-1", "--cap-usd", "abc"),
                List.of("run", "cap", "run-1", "--cap-gpu-hours", "-3"),
                List.of("volume", "create", "--size", "1GB", "--cap-usd", "1e3"),
                List.of("pod", "create", "--cap-usd", "$5"),
                List.of("pod", "create", "--price-per-hour", "0,5"));
        for (List<String> args : commands) {
            CliRun.Result run = CliRun.run(args.toArray(String[]::new));

            String option = args.get(args.size() - 2);
            String value = args.get(args.size() - 1);
            assertThat(run.exit()).as(String.join(" ", args)).isEqualTo(CliException.USAGE);
            assertThat(run.err()).as(String.join(" ", args)).hasLineCount(1)
                    .startsWith("stowage: Invalid value for option '" + option + "': '" + value + "' is not an amount:"
                            + " give a non-negative decimal number such as 50 or 12.5")
                    .doesNotContain("Exception");
        }
        assertThat(new io.stowage.cli.AmountConverter().convert("12.50")).isEqualByComparingTo("12.5");
        assertThat(new io.stowage.cli.AmountConverter().convert("0")).isZero();
    }

    @Test
    void everySubcommandPrintsTheVersion() {
        for (List<String> args : List.of(List.of("--version"), List.of("release", "--version"),
                List.of("checkpoint", "fetch", "--version"), List.of("audit", "verify-chain", "--version"))) {
            CliRun.Result run = CliRun.run(args.toArray(String[]::new));

            assertThat(run.exit()).as(String.join(" ", args)).isZero();
            assertThat(run.out()).as(String.join(" ", args)).isEqualTo("stowage 0.1.0\n");
        }
    }

    @Test
    void aTokensExpiryOfZeroIsNoExpiryAsForEveryDuration() throws Exception {
        System.setProperty("stowage.home", tmp.toString());
        try {
            CliRun.Result none = CliRun.run("token", "create", "--role", "reader", "--name", "ci-bot", "--expires", "0", "--json");
            CliRun.Result hour = CliRun.run("token", "create", "--role", "reader", "--name", "ci-bot", "--expires", "1h", "--json");

            assertThat(none.exit()).as(none.err()).isZero();
            String line = io.stowage.events.EventCodec.mapper().readTree(none.out()).path("line").asText();
            assertThat(line.split(":")).as(line).hasSize(3).startsWith("reader", "ci-bot");
            assertThat(io.stowage.events.EventCodec.mapper().readTree(hour.out()).path("line").asText().split(":", 4))
                    .as("an expiry is a fourth field").hasSize(4);
        } finally {
            System.clearProperty("stowage.home");
        }
    }
}
