package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.cli.run.CapsuleLint;
import io.stowage.cli.run.LedgerDigests;
import io.stowage.cli.run.LintProblem;
import io.stowage.cli.run.MountContract;
import io.stowage.cli.run.MountSpecs;
import io.stowage.events.EventCodec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code stowage capsule lint RUN_DIR|experiment.json [--mounts SPEC] [--ledger URL | --local] [--json]}: checks a
 * run's capsule ({@link CapsuleLint}), with a stack up the SHA-256s it names against the ledger
 * ({@link LedgerDigests}), and a container's mounts against the mount contract ({@link MountContract}); prints
 * every problem at once.
 */
@Command(name = "capsule", mixinStandardHelpOptions = true, description = "Experiment capsule commands.",
        subcommands = {CapsuleCommand.Lint.class})
public final class CapsuleCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    @Command(name = "lint", mixinStandardHelpOptions = true,
            description = {"Check a run's experiment capsule before money is spent: every field a run must record"
                    + " (docs/runs.md), each problem named with what is expected. With a stack up ('stowage up', or"
                    + " --ledger URL), every SHA-256 it names as stored (dataManifestSha256, resumeFromSha256,"
                    + " modelSha256) must be a verified object in the ledger. --mounts checks a container's mounts"
                    + " against the mount contract."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:clean", "1:the ledger could not be asked", "2:problems found (all listed), or unreadable input"})
    static final class Lint implements Callable<Integer> {
        @Parameters(paramLabel = "RUN_DIR|experiment.json", arity = "0..1",
                description = "The run directory holding experiment.json, or the capsule file itself.")
        Path capsule;
        @Option(names = "--mounts", paramLabel = "SPEC",
                description = "Mounts to check: FILE.json (a list) or a compose FILE.yml[#SERVICE].")
        String mounts;
        @Option(names = "--ledger", paramLabel = "URL", description = "The ledger to resolve SHA-256s in (default: the running stack's, if any).")
        URI ledger;
        @Option(names = "--local", description = "Do not ask a ledger even when a stack is up.")
        boolean local;
        @Option(names = "--json", description = "Print the result as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            if (capsule == null && mounts == null) {
                throw new CliException(CliException.USAGE, "name a capsule (RUN_DIR or experiment.json), --mounts SPEC, or both");
            }
            List<Map<String, String>> problems = new ArrayList<>();
            Path file = capsule == null ? null : capsuleFile(capsule);
            String ledgerNote = "not asked (no capsule)";
            if (file != null) {
                JsonNode tree = read(file);
                CapsuleLint.check(tree).forEach(p -> problems.add(entry("capsule", p)));
                retentionProblem(file).ifPresent(p -> problems.add(entry("capsule", p)));
                ledgerNote = checkLedger(tree, problems);
            }
            int mountCount = 0;
            if (mounts != null) {
                var list = MountSpecs.read(mounts);
                mountCount = list.size();
                MountContract.check(list).forEach(p -> problems.add(entry("mounts", p)));
            }
            print(file, problems, ledgerNote, mountCount);
            return problems.isEmpty() ? 0 : CliException.USAGE;
        }

        // the retention policy as checkpoint publish reads it: a problem here means the run gets no sweep policy
        private static java.util.Optional<LintProblem> retentionProblem(Path file) {
            try {
                io.stowage.cli.retention.CapsuleRetention.read(file);
                return java.util.Optional.empty();
            } catch (CliException e) {
                String message = e.getMessage().startsWith(file + ": ") ? e.getMessage().substring(file.toString().length() + 2)
                        : e.getMessage();
                return java.util.Optional.of(new LintProblem("retention", message + " (publish would record no policy: the"
                        + " periodic sweep would leave the run alone)", "the fields of docs/retention.md \"The policy\""));
            }
        }

        private String checkLedger(JsonNode tree, List<Map<String, String>> problems) {
            Map<String, String> digests = CapsuleLint.storedDigests(tree);
            URI base = local ? null : ledger != null ? ledger : runningLedger();
            if (base == null) {
                return local ? "not asked (--local)" : "not asked (no stack up: start 'stowage up' or pass --ledger URL)";
            }
            LedgerDigests.judge(digests, LedgerDigests.objects(base)).forEach(p -> problems.add(entry("ledger", p)));
            return "asked " + base + " about " + digests.size() + " SHA-256" + (digests.size() == 1 ? "" : "s");
        }

        private static URI runningLedger() {
            Path session = StowageHome.fromEnvironment().session();
            if (!Files.isRegularFile(session)) {
                return null;
            }
            try {
                return Session.readFrom(session).serviceUrl("ledger");
            } catch (CliException stale) {
                return null; // a session left by an ended 'stowage up' is no stack
            }
        }

        private void print(Path file, List<Map<String, String>> problems, String ledgerNote, int mountCount) {
            if (json) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("capsule", file == null ? null : file.toString());
                out.put("clean", problems.isEmpty());
                out.put("problems", problems);
                out.put("ledger", ledgerNote);
                out.put("mountsChecked", mountCount);
                JsonOut.print(out);
                return;
            }
            for (Map<String, String> p : problems) {
                System.out.println(p.get("source") + " " + p.get("field") + ": " + p.get("problem") + "; expected " + p.get("expected"));
            }
            String what = (file == null ? "" : file + "; ") + (mounts == null ? "" : mountCount + " mounts of " + mounts + "; ");
            System.out.println((problems.isEmpty() ? "clean: " : problems.size() + " problem" + (problems.size() == 1 ? "" : "s")
                    + ": ") + what + "ledger " + ledgerNote);
        }

        private static Map<String, String> entry(String source, LintProblem problem) {
            Map<String, String> entry = new LinkedHashMap<>();
            entry.put("source", source);
            entry.put("field", problem.field());
            entry.put("problem", problem.problem());
            entry.put("expected", problem.expected());
            return entry;
        }

        private static Path capsuleFile(Path given) {
            Path file = Files.isDirectory(given) ? given.resolve("experiment.json") : given;
            if (!Files.isRegularFile(file)) {
                throw new CliException(CliException.USAGE, Files.isDirectory(given) ? "no experiment.json in " + given
                        : "capsule " + given + " does not exist or is not a file");
            }
            return file.toAbsolutePath().normalize();
        }

        private static JsonNode read(Path file) {
            try {
                return EventCodec.mapper().readTree(file.toFile());
            } catch (IOException e) {
                throw new CliException(CliException.USAGE, "cannot parse " + file + ": "
                        + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
            }
        }
    }
}
