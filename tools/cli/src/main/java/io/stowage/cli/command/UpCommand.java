package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;

/** {@code stowage up}: the embedded stack and the six services, until Ctrl-C. */
@Command(name = "up", mixinStandardHelpOptions = true, description = "Start Kafka, S3Proxy, PostgreSQL and the six services on loopback; Ctrl-C stops all.")
public final class UpCommand implements Callable<Integer> {

    @Option(names = "--protect", description = "A directory the gate must never release (repeatable); STOWAGE_HOME is always protected.")
    List<Path> protectedRoots = new ArrayList<>();

    @Option(names = "--volume-root", description = "A volume whose directories the gate may release (repeatable); "
            + "without one every release is denied.")
    List<Path> volumeRoots = new ArrayList<>();

    @Option(names = "--instances", split = ",", paramLabel = "SERVICE=N", description = "Run N instances of a service in "
            + "its consumer group (uploader, verifier, gatekeeper; up to 4), e.g. --instances uploader=2,verifier=2; "
            + "instance n logs to logs/<service>-n.log.")
    java.util.Map<String, Integer> instances = new java.util.LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        io.stowage.cli.platform.ServiceLauncher.requireInstances(instances);
        StowageHome home = StowageHome.fromEnvironment();
        if (Files.exists(home.session())) {
            if (readOwnerAlive(home)) {
                throw new CliException(CliException.FAILED, "'stowage up' is already running for " + home.root()
                        + " (see " + home.session() + "); set STOWAGE_HOME to run a second one");
            }
            System.err.println("==> replacing " + home.session() + ", left by a 'stowage up' that has ended");
            Files.delete(home.session());
        }
        List<Path> roots = new ArrayList<>(protectedRoots.stream().map(p -> p.toAbsolutePath().normalize()).toList());
        roots.add(home.root());
        Progress progress = new Progress(System.err, false);
        if (volumeRoots.isEmpty()) {
            System.err.println("==> no --volume-root given: the gate will deny every release (outside-volume-roots)");
        }
        Platform platform = Platform.start(home.root(), roots,
                volumeRoots.stream().map(p -> p.toAbsolutePath().normalize()).toList(), progress,
                io.stowage.stack.StackCredentials.random(), null, instances);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.err.println("==> stopping the services and servers");
            platform.close();
            try {
                Files.deleteIfExists(home.session());
            } catch (Exception ignored) {
                // best effort: the next 'up' says how to clean up
            }
            stopped.countDown();
        }));
        platform.session().writeTo(home.session());
        System.out.println("Stowage is up. Session: " + home.session());
        platform.session().services().forEach((name, url) -> System.out.println("  " + name + "  " + url));
        System.out.println("  kafka  " + platform.session().stack().kafkaBootstrapServers() + " (SASL/SCRAM, one user per"
                + " service; ACLs of " + io.stowage.stack.KafkaAclTable.FILE + "; the CLI's login is in the session)");
        System.out.println("  s3     " + platform.session().stack().s3Endpoint());
        System.out.println("  tokens " + BearerToken.directory(home) + " (operator.token, reader.token; the CLI uses the"
                + " operator's unless STOWAGE_TOKEN is set)");
        System.out.println("Press Ctrl-C to stop.");
        // later commands start faster from a class archive of this CLI jar, written once per jar in the background
        io.stowage.cli.platform.CliClassArchive.writeInBackground(home);
        stopped.await();
        return 0;
    }

    private static boolean readOwnerAlive(StowageHome home) {
        try {
            Session.readFrom(home.session());
            return true;
        } catch (CliException notRunning) {
            return false;
        }
    }
}
