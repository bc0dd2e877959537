package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.Inputs;
import io.stowage.cli.NameArguments;
import io.stowage.cli.checkpoint.CheckpointFetcher;
import io.stowage.cli.checkpoint.CheckpointPublisher;
import io.stowage.cli.checkpoint.LedgerSteps;
import io.stowage.cli.checkpoint.StoredCheckpoint;
import io.stowage.cli.client.EventPublisher;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.ObjectKeys;
import io.stowage.events.manifest.MemberEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code stowage checkpoint publish DIR}: publish a complete step directory and wait until it is uploaded and verified;
 * {@code stowage checkpoint fetch}: download and verify a stored step for resuming; {@code stowage checkpoint watch}:
 * the publishing sidecar ({@link WatchCommand}).
 */
@Command(name = "checkpoint", mixinStandardHelpOptions = true, description = "Checkpoint commands.",
        subcommands = {CheckpointCommand.Publish.class, CheckpointCommand.Fetch.class, WatchCommand.class,
                CheckpointCommand.Pin.class, CheckpointCommand.Unpin.class})
public final class CheckpointCommand {

    @Command(name = "publish", mixinStandardHelpOptions = true,
            description = "Publish a complete checkpoint step directory for upload; provenance comes from the run's"
                    + " experiment.json beside it and its own provenance.json (codeCommit, configSha256, dataManifestSha256, ...);"
                    + " a step lacking one of those three is archived with a warning that the gate can never release it.")
    static final class Publish implements Callable<Integer> {
        @Parameters(paramLabel = "DIR", description = "The step directory (complete: renamed into place).")
        Path dir;
        @Option(names = "--experiment", required = true, description = "Experiment name (ASCII letters, digits, '.', '_', '-').")
        String experiment;
        @Option(names = "--run", required = true, description = "Run name (same characters).")
        String run;
        @Option(names = "--step", description = "Step number (default: from a directory named step-N).")
        Long step;
        @Option(names = "--key", description = "A key checkpoint: keep a second verified copy in the replica store.")
        boolean key;
        @Option(names = "--tag", description = "A label such as 'best' (repeatable, same characters as names); 'best' makes a key checkpoint.")
        List<String> tags = new ArrayList<>();
        @Option(names = "--last", description = "The run's last step: a key checkpoint (also when experiment.json's finalStep names it).")
        boolean last;
        @Option(names = "--key-every", paramLabel = "N", description = "Policy: every step divisible by N is a key checkpoint.")
        Long keyEvery;
        @Option(names = "--metric", paramLabel = "NAME=VALUE", description = "A training metric of the step, e.g."
                + " val_loss=0.42 (repeatable; wins over the same name in the step's metrics.json); retention's keep-best reads it.")
        List<String> metrics = new ArrayList<>();
        @Option(names = "--no-wait", description = "Return once published, without waiting for upload and verification.")
        boolean noWait;
        @Option(names = "--json", description = "Print the published event as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            NameArguments.require("--experiment", experiment);
            NameArguments.require("--run", run);
            tags.forEach(tag -> NameArguments.require("--tag", tag));
            Inputs.requireReadableDirectory("checkpoint directory", dir); // before its name is read for the step
            long number = step != null ? step : stepFromName(dir);
            if (keyEvery != null && keyEvery < 1) {
                throw new CliException(CliException.USAGE, "--key-every must be at least 1");
            }
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            Progress progress = new Progress(System.err, json);
            CheckpointPublisher.Prepared prepared = new CheckpointPublisher(Path.of(session.stagingDir()), Clock.systemUTC())
                    .prepare(dir, experiment, run, number, key, tags, last, keyEvery, metrics);
            prepared.warnings().forEach(progress::warn);
            boolean keyCheckpoint = prepared.event().key();
            if (keyCheckpoint) {
                progress.detail("key checkpoint (" + String.join(", ", prepared.keyReasons()) + "): a second copy goes to the replica store");
            }
            if (prepared.event().retention() != null) {
                progress.detail("the capsule's retention policy " + RetentionCommand.setFields(
                        io.stowage.events.EventCodec.mapper().valueToTree(prepared.event().retention()))
                        + " goes with it: the periodic sweep applies it to the run (stowage retention schedules)");
            }
            LedgerClient ledger = new LedgerClient(session.serviceUrl("ledger"));
            Set<String> deadLettersBefore = noWait ? Set.of() : ledger.deadLetterIds(prepared.event().assetId());
            try (EventPublisher publisher = new EventPublisher(session.kafkaClient())) {
                publisher.publish(prepared.event());
            }
            progress.step("published " + prepared.event().assetId() + " (" + Inputs.count(prepared.event().fileCount(), "file") + ")");
            if (!noWait) {
                // waited for by key: a step published before with other content has other keys, never counted here
                Set<String> expected = new LinkedHashSet<>();
                for (String store : keyCheckpoint ? List.of("primary", "replica") : List.of("primary")) {
                    for (MemberEntry file : prepared.manifest().files()) {
                        expected.add(LedgerClient.storeKey(store, ObjectKeys.checkpointFile(prepared.event().experiment(),
                                prepared.event().run(), prepared.event().step(), file.sha256(), file.path())));
                    }
                }
                ledger.awaitVerified(prepared.event().assetId(), expected, Duration.ofHours(2), deadLettersBefore);
                progress.detail("every file uploaded and verified" + (keyCheckpoint ? " in both stores" : ""));
            }
            if (json) {
                JsonOut.print(prepared.event());
            } else {
                System.out.println(prepared.event().assetId());
            }
            return 0;
        }

        private static long stepFromName(Path dir) {
            String name = dir.toAbsolutePath().normalize().getFileName().toString();
            try {
                return Long.parseLong(name.startsWith("step-") ? name.substring(5) : name);
            } catch (NumberFormatException e) {
                throw new CliException(CliException.USAGE, "cannot tell the step from the directory name '" + name + "': pass --step N");
            }
        }
    }

    @Command(name = "fetch", mixinStandardHelpOptions = true,
            description = {"Download a stored checkpoint step from the primary store into a new or empty directory,"
                    + " verifying every file's SHA-256 against its key; nothing is left behind when one differs.",
                    "--latest follows the run's latest.json pointer, which the uploader writes only once every file"
                            + " of a step was verified in the primary store, and fetches every file it names.",
                    "--step N fetches the files the ledger records as published for the step, every one of them.",
                    "Either way a file in neither store fails the fetch, naming it, before the lease and with nothing"
                            + " written.",
                    "A file whose primary copy is missing or fails its SHA-256 is taken from the replica store (key"
                            + " checkpoints have a second copy there), with a warning.",
                    "The step is leased before any file is read (--lease, default 24h): retention keeps it while the"
                            + " lease runs."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:fetched and verified", "1:not stored (expired by retention, or unknown to the ledger),"
                    + " a published file missing from the store, store or ledger unreachable, the lease not recorded, or a SHA-256 mismatch; a directory it created is removed again",
                    "2:bad input (a name, a non-empty --to, --lease 0)",
                    "4:the lease was refused: no token, or an unknown or expired one"})
    static final class Fetch implements Callable<Integer> {
        @Option(names = "--experiment", required = true, description = "Experiment name (ASCII letters, digits, '.', '_', '-').")
        String experiment;
        @Option(names = "--run", required = true, description = "Run name (same characters).")
        String run;
        @picocli.CommandLine.ArgGroup(exclusive = true, multiplicity = "1")
        Which which;
        @Option(names = "--to", required = true, paramLabel = "DIR", description = "Target directory: missing or empty.")
        Path to;
        @Option(names = "--json", description = "Print {\"dir\":…,\"files\":[{\"key\":…,\"sha256\":…,\"path\":…}],\"step\":N,"
                + "\"leaseUntil\":…} as one line.")
        boolean json;
        @Option(names = "--lease", paramLabel = "DURATION", defaultValue = "24h", description = "Before any file is read,"
                + " lease the step for this long (recorded in the ledger through the gatekeeper; a reader token suffices):"
                + " retention never expires a leased step, so the step a resume reads cannot be deleted under it. Default"
                + " ${DEFAULT-VALUE}; at most the gatekeeper's lease-max (7d by default).")
        java.time.Duration lease;
        @Option(names = "--no-lease", description = "Fetch without a lease (a copy to look at): retention may expire the"
                + " step meanwhile, unless it is latest, the newest verified or pinned.")
        boolean noLease;

        static final class Which {
            @Option(names = "--step", required = true, description = "The step number.")
            Long step;
            @Option(names = "--latest", required = true, description = "The step the run's latest.json pointer names (the newest fully verified step).")
            boolean latest;
        }

        @Override
        public Integer call() {
            NameArguments.require("--experiment", experiment);
            NameArguments.require("--run", run);
            if (!noLease && lease.isZero()) {
                throw new CliException(CliException.USAGE, "--lease must be longer than 0 (--no-lease fetches without one)");
            }
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            StoredCheckpoint fetched;
            Progress progress = new Progress(System.err, json);
            String[] leasedUntil = new String[1];
            try (PrimaryStore store = new PrimaryStore(session.stack());
                 PrimaryStore replica = new PrimaryStore(session.stack(), true)) {
                CheckpointFetcher fetcher = new CheckpointFetcher(store, replica, progress::warn);
                java.util.function.LongConsumer located = step -> {
                    if (!noLease) {
                        leasedUntil[0] = lease(session, step, progress);
                    }
                };
                fetched = which.latest ? fetcher.fetch(experiment, run, null, to, located)
                        : fetcher.fetchPublished(experiment, run, published(session, which.step), to, located);
            }
            Path dir = to.toAbsolutePath().normalize();
            if (json) {
                java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
                out.put("step", fetched.step());
                out.put("dir", dir.toString());
                out.put("files", fetched.files());
                out.put("leaseUntil", leasedUntil[0]);
                JsonOut.print(out);
            } else {
                new Progress(System.err, false).step("fetched step " + fetched.step() + " of " + experiment + "/" + run
                        + " (" + Inputs.count(fetched.files().size(), "file") + ", every SHA-256 verified)");
                System.out.println(dir);
            }
            return 0;
        }

        /**
         * Leases {@code step} through the gatekeeper ({@code POST /api/checkpoints/leases}) and waits until the ledger
         * recorded the lease, so that any retention evaluated from the ledger afterwards keeps the step.
         *
         * @return the lease's end, ISO-8601 UTC
         * @throws CliException with the gatekeeper's or ledger's exit code (4 for a missing or unknown token, 1 when a
         *                      service cannot be reached or the ledger does not record it within 60 s): nothing fetched
         */
        private String lease(Session session, long step, Progress progress) {
            try {
                com.fasterxml.jackson.databind.JsonNode answer = new io.stowage.cli.client.GatekeeperClient(
                        session.serviceUrl("gatekeeper")).lease(experiment, run, step, lease.toSeconds());
                String eventId = answer.path("eventId").asText();
                new LedgerClient(session.serviceUrl("ledger")).awaitEvent(eventId, Duration.ofSeconds(60));
                String until = answer.path("leaseUntil").asText();
                progress.detail("leased step " + step + " of " + experiment + "/" + run + " until " + until
                        + ": retention keeps it (event " + eventId + ")");
                return until;
            } catch (CliException e) {
                throw new CliException(e.exitCode(), "cannot lease step " + step + " of " + experiment + "/" + run + " ("
                        + e.getMessage() + "): nothing fetched; --no-lease fetches without a lease", e);
            }
        }

        /**
         * @return the step's files as published, from the ledger ({@link LedgerSteps#published}): what {@code --step}
         *         fetches, all of them, whatever the store's listing holds
         * @throws CliException exit 1 when the ledger cannot be asked or does not hold the step as stored
         */
        private StoredCheckpoint published(Session session, long step) {
            io.stowage.events.ledger.RunCheckpoints known;
            try {
                known = new LedgerClient(session.serviceUrl("ledger")).checkpoints(experiment, run);
            } catch (CliException e) {
                throw new CliException(e.exitCode(), "cannot read the published file list of step " + step + " of "
                        + experiment + "/" + run + " from the ledger (" + e.getMessage() + "): nothing fetched", e);
            }
            return new LedgerSteps(known).published(step);
        }
    }

    /** The options of pin and unpin, and the call to the gatekeeper that records the event in the token's name. */
    abstract static class PinBase implements Callable<Integer> {
        @Option(names = "--experiment", required = true, description = "Experiment name.")
        String experiment;
        @Option(names = "--run", required = true, description = "Run name.")
        String run;
        @Option(names = "--step", required = true, description = "The step number.")
        long step;

        abstract boolean pinned();

        @Override
        public Integer call() {
            NameArguments.require("--experiment", experiment);
            NameArguments.require("--run", run);
            if (step < 0) {
                throw new CliException(CliException.USAGE, "--step must not be negative");
            }
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            LedgerClient ledger = new LedgerClient(session.serviceUrl("ledger"));
            String refused = "nothing " + (pinned() ? "pinned" : "unpinned");
            LedgerSteps known = new LedgerSteps(knownSteps(ledger, refused));
            known.require(step, refused);
            if (pinned()) {
                // a pin keeps objects; once retention deleted them it would keep nothing and only seem to
                known.whyNotStored(step).ifPresent(why -> {
                    throw new CliException(CliException.FAILED, why + ": a pin cannot bring it back; " + refused);
                });
            }
            com.fasterxml.jackson.databind.JsonNode answer = new io.stowage.cli.client.GatekeeperClient(
                    session.serviceUrl("gatekeeper")).pin(experiment, run, step, pinned());
            String eventId = answer.path("eventId").asText();
            ledger.awaitEvent(eventId, Duration.ofSeconds(60));
            new Progress(System.err, false).step((pinned() ? "pinned " : "unpinned ") + answer.path("assetId").asText()
                    + " (event " + eventId + ", by " + answer.path("requestedBy").asText() + ")");
            System.out.println(answer.path("assetId").asText());
            return 0;
        }

        /** A pin keeps data: when the ledger cannot say the step exists, refuse rather than guess. */
        private io.stowage.events.ledger.RunCheckpoints knownSteps(LedgerClient ledger, String refused) {
            try {
                return ledger.checkpoints(experiment, run);
            } catch (CliException e) {
                if (e.exitCode() != CliException.FAILED) {
                    throw e;
                }
                throw new CliException(CliException.FAILED, "cannot ask the ledger whether step " + step + " of " + experiment
                        + "/" + run + " exists (" + e.getMessage() + "): " + refused, e);
            }
        }
    }

    @Command(name = "pin", mixinStandardHelpOptions = true,
            description = "Pin a stored checkpoint step (operator token): retention never expires a pinned step. A run or"
                    + " step the ledger does not know, a step retention already expired (its objects are gone), or a ledger"
                    + " that cannot be asked is refused, exit 1, nothing recorded.")
    static final class Pin extends PinBase {
        @Override
        boolean pinned() {
            return true;
        }
    }

    @Command(name = "unpin", mixinStandardHelpOptions = true,
            description = "Unpin a stored checkpoint step (operator token): its run's retention policy applies again. A run"
                    + " or step the ledger does not know is refused, exit 1, nothing recorded.")
    static final class Unpin extends PinBase {
        @Override
        boolean pinned() {
            return false;
        }
    }
}
