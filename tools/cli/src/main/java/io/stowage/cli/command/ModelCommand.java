package io.stowage.cli.command;

import io.stowage.cli.Inputs;
import io.stowage.cli.NameArguments;
import io.stowage.cli.client.EventPublisher;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.model.ModelPublisher;
import io.stowage.cli.model.ModelRevisions;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.ModelPublished;
import io.stowage.events.ObjectKeys;
import io.stowage.events.manifest.MemberEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code stowage model publish DIR}: store a model revision at {@code models/<model>/<revision>/} and wait until
 * every file and its model manifest are uploaded and verified; {@code stowage model fetch}: download and verify one;
 * {@code stowage model share}: presigned links ({@link ModelShareCommand}); {@code stowage model promote}: a checkpoint
 * step copied inside the store ({@link ModelPromoteCommand}).
 */
@Command(name = "model", mixinStandardHelpOptions = true, description = "Model revision commands.",
        subcommands = {ModelCommand.Publish.class, ModelFetchCommand.class, ModelShareCommand.class,
                ModelPromoteCommand.class})
public final class ModelCommand {

    @Command(name = "publish", mixinStandardHelpOptions = true,
            description = {"Publish a model directory as one immutable model revision: every file goes to"
                    + " models/M/R/<sha256>/<path>, with the model manifest models/M/R/manifest.json (files, bytes,"
                    + " SHA-256, licence, source), uploaded, HEAD-checked and re-read, recorded as asset model/M/R.",
                    "The same model and revision with other content is refused before a byte is sent; the same"
                            + " content again says 'already stored'."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:stored and verified, or already stored", "1:refused (other content), upload or"
                    + " verification failed, store or ledger unreachable", "2:bad input (a name, a blank licence or"
                    + " source, a missing or empty directory)"})
    static final class Publish implements Callable<Integer> {
        @Parameters(paramLabel = "DIR", description = "The model directory.")
        Path dir;
        @Option(names = "--model", required = true, description = "Model name (ASCII letters, digits, '.', '_', '-').")
        String model;
        @Option(names = "--revision", required = true, description = "Revision name (same characters).")
        String revision;
        @Option(names = {"--license", "--licence"}, required = true, description = "The licence the files are under, e.g. BSD-2-Clause.")
        String license;
        @Option(names = "--source", required = true, description = "Where the files come from (URL, package, paper).")
        String source;
        @Option(names = "--no-wait", description = "Return once published, without waiting for upload and verification.")
        boolean noWait;
        @Option(names = "--json", description = "Print {\"asset\",\"status\",\"manifestKey\",\"manifestSha256\",\"files\":[…]} as one line.")
        boolean json;

        @Override
        public Integer call() {
            NameArguments.require("--model", model);
            NameArguments.require("--revision", revision);
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            Progress progress = new Progress(System.err, json);
            ModelPublisher publisher = new ModelPublisher(Path.of(session.stagingDir()), Clock.systemUTC());
            ModelPublisher.Planned planned = publisher.plan(dir, model, revision, license, source);
            LedgerClient ledger = new LedgerClient(session.serviceUrl("ledger"));
            ModelRevisions.Decision decision;
            try (PrimaryStore store = new PrimaryStore(session.stack())) {
                decision = new ModelRevisions(store, ledger::asset).decide(planned);
            }
            String status = "already stored";
            if (decision == ModelRevisions.Decision.PUBLISH) {
                ModelPublished event = publisher.stage(planned);
                try (EventPublisher events = new EventPublisher(session.kafkaClient())) {
                    events.publish(event);
                }
                progress.step("published " + planned.assetId() + " (" + Inputs.count(event.fileCount(), "file") + ", "
                        + event.totalBytes() + " bytes)");
                status = "published";
                if (!noWait) {
                    ledger.awaitVerified(planned.assetId(), event.fileCount() + 1, Duration.ofHours(2));
                    progress.detail("every file and the model manifest uploaded, HEAD-checked and re-read");
                    status = "stored";
                }
            }
            print(planned, status);
            return 0;
        }

        private void print(ModelPublisher.Planned planned, String status) {
            String manifestKey = ObjectKeys.modelManifest(model, revision);
            if (!json) {
                System.out.println(planned.assetId() + ": " + status + " at " + ObjectKeys.modelPrefix(model, revision)
                        + " (manifest sha256 " + planned.sha256() + ")");
                return;
            }
            List<Map<String, Object>> files = new ArrayList<>();
            List<String> keys = planned.fileKeys();
            for (int i = 0; i < keys.size(); i++) {
                MemberEntry file = planned.manifest().files().get(i);
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("path", file.path());
                one.put("bytes", file.bytes());
                one.put("sha256", file.sha256());
                one.put("key", keys.get(i));
                files.add(one);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("asset", planned.assetId());
            out.put("status", status);
            out.put("manifestKey", manifestKey);
            out.put("manifestSha256", planned.sha256());
            out.put("license", planned.manifest().license());
            out.put("source", planned.manifest().source());
            out.put("files", files);
            JsonOut.print(out);
        }
    }
}
