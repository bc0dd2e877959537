package io.stowage.cli;

import io.stowage.cli.command.ArchiveCommand;
import io.stowage.cli.command.CapsuleCommand;
import io.stowage.cli.command.AuditCommand;
import io.stowage.cli.command.CheckpointCommand;
import io.stowage.cli.command.CostCommand;
import io.stowage.cli.command.DatasetCommand;
import io.stowage.cli.command.DemoCommand;
import io.stowage.cli.command.DownCommand;
import io.stowage.cli.command.EvidenceCommand;
import io.stowage.cli.command.ModelCommand;
import io.stowage.cli.command.PodCommand;
import io.stowage.cli.command.PresignCommand;
import io.stowage.cli.command.ReleaseCommand;
import io.stowage.cli.command.RetentionCommand;
import io.stowage.cli.command.RunCommand;
import io.stowage.cli.command.StatusCommand;
import io.stowage.cli.command.TokenCommand;
import io.stowage.cli.command.UpCommand;
import io.stowage.cli.command.VolumeCommand;
import io.stowage.cli.command.WatchCommand;
import io.stowage.cli.output.LibraryLogs;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code stowage} command: {@code up}, {@code demo}, {@code dataset shard},
 * {@code checkpoint publish}, {@code release}, {@code status}. Failures print one line
 * {@code stowage: <reason>} on standard error and exit non-zero (1 failed or unknown, 2 bad input, 3 denied release,
 * 4 a token a service refused).
 */
@Command(name = "stowage", mixinStandardHelpOptions = true, version = "stowage 0.1.0",
        description = "Archive, verify and safely release the storage of ML training.",
        subcommands = {UpCommand.class, DownCommand.class, DemoCommand.class, DatasetCommand.class, CheckpointCommand.class,
                WatchCommand.class, ReleaseCommand.class, StatusCommand.class, AuditCommand.class, VolumeCommand.class,
                PodCommand.class, RunCommand.class, CostCommand.class, ArchiveCommand.class, PresignCommand.class,
                TokenCommand.class, CapsuleCommand.class, RetentionCommand.class, ModelCommand.class,
                EvidenceCommand.class, io.stowage.cli.command.ClassArchiveTrainingCommand.class})
public final class StowageCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        LibraryLogs.configure(); // before any library logs: one line each, WARNING and up
        System.exit(execute(args));
    }

    /** Runs the command line and returns its exit code (0 success). */
    public static int execute(String... args) {
        CommandLine cli = new CommandLine(new StowageCli());
        cli.registerConverter(java.time.Duration.class, new DurationConverter());
        cli.registerConverter(java.math.BigDecimal.class, new AmountConverter());
        giveEverySubcommandTheVersion(cli, cli.getCommandSpec().version());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof CliException failure) {
                commandLine.getErr().println("stowage: " + failure.getMessage());
                return failure.exitCode();
            }
            commandLine.getErr().println("stowage: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return CliException.FAILED;
        });
        cli.setParameterExceptionHandler((e, args1) -> {
            CommandLine command = e.getCommandLine();
            command.getErr().println("stowage: " + e.getMessage() + " (see '" + command.getCommandSpec().qualifiedName()
                    + " --help')");
            return CliException.USAGE;
        });
        cli.setExitCodeExceptionMapper(e -> CliException.USAGE);
        return cli.execute(args);
    }

    /** Every subcommand's {@code --version} prints the command's version (picocli leaves theirs empty). */
    private static void giveEverySubcommandTheVersion(CommandLine command, String[] version) {
        for (CommandLine sub : command.getSubcommands().values()) {
            if (sub.getCommandSpec().version().length == 0) {
                sub.getCommandSpec().version(version);
            }
            giveEverySubcommandTheVersion(sub, version);
        }
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
