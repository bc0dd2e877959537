package io.stowage.cli.command;

import io.stowage.cli.Repo;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.demo.DemoReport;
import io.stowage.cli.demo.DemoRunner;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code stowage demo}: the whole flow on the shipped real data, in a scratch directory. */
@Command(name = "demo", mixinStandardHelpOptions = true, description = "Run the main job end to end on real sample data in a scratch directory.")
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--json", description = "Print the result as one line of JSON on standard output.")
    boolean json;

    @Option(names = "--work", description = "Scratch directory, kept afterwards (default: a new temporary directory, removed afterwards).")
    Path work;

    @Option(names = "--keep", description = "Keep the temporary scratch directory (servers' data, logs, what was left on the hot volume).")
    boolean keep;

    @Override
    public Integer call() throws Exception {
        Path dir = work != null ? work.toAbsolutePath().normalize() : Files.createTempDirectory("stowage-demo-");
        Progress progress = new Progress(System.err, false);
        progress.step("scratch directory " + dir + " (plays the hot volume; the repository is never touched)");
        DemoRunner.HotVolume hot = DemoRunner.HotVolume.prepare(Repo.root(), dir);
        DemoReport report;
        try (Platform platform = Platform.start(dir, hot.protectedRoots(dir), hot.volumeRoots(), progress)) {
            BearerToken.useSession(dir.resolve("tokens")); // the demo's own services and their tokens
            report = new DemoRunner(platform.session(), progress).run(hot);
        }
        if (work == null && !keep) {
            progress.step("removing the scratch directory (use --keep or --work DIR to keep it)");
            deleteTree(dir);
        } else {
            progress.step("kept the scratch directory " + dir + " (servers' logs under logs/ and stack/)");
        }
        if (json) {
            JsonOut.print(report);
        } else {
            print(report);
        }
        return 0;
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
            for (Path path : (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(path);
            }
        }
    }

    private static void print(DemoReport r) {
        System.out.printf("dataset %s@%s: %d shards, %d objects verified, gate %s%n", r.dataset().name(),
                r.dataset().revision(), r.dataset().shards(), r.dataset().objectsVerified(), r.dataset().gate());
        r.checkpoints().forEach(c -> System.out.printf("checkpoint step %d: %d files, %d verified cop%s, gate %s%n",
                c.step(), c.objects(), c.copies(), c.copies() == 1 ? "y" : "ies", c.gate()));
        System.out.printf("model %s: promoted from %s, %d files copied inside the store, %d objects verified%n",
                r.model().asset(), r.model().fromCheckpoint(), r.model().files(), r.model().objectsVerified());
        r.denied().forEach(d -> {
            System.out.printf("denied %s:%n", d.path());
            d.failed().forEach(f -> System.out.printf("  condition %d (%s): %s%n", f.condition(), f.code(), f.detail()));
        });
        r.released().forEach(p -> System.out.println("released " + p));
        System.out.printf("ledger: %d events%n", r.ledgerEvents());
    }
}
