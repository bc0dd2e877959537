package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.evidence.EvidenceCollector;
import io.stowage.cli.evidence.EvidenceExport;
import io.stowage.cli.evidence.EvidenceLedger;
import io.stowage.cli.evidence.EvidencePage;
import io.stowage.cli.evidence.EvidenceSelection;
import io.stowage.cli.evidence.EvidenceWriter;
import io.stowage.cli.evidence.PublishGuard;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code stowage evidence}: evidence fit for publishing. {@code evidence export --to DIR} consumes the ledger's HTTP
 * query API (with the reader token unless one is set) and produces {@code DIR/evidence.json} and
 * {@code DIR/index.html} (docs/evidence-export.md); exit 2 for bad input or a DIR that is not absent or empty, 1 when
 * the ledger cannot answer, holds no matching asset, or the files would carry a value that must not be published.
 */
@Command(name = "evidence", mixinStandardHelpOptions = true, description = "Evidence fit for publishing.",
        subcommands = EvidenceCommand.Export.class)
public final class EvidenceCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /**
     * What {@code --json} prints.
     *
     * @param to      the target directory
     * @param dryRun  true when nothing was written
     * @param files   the files written (or that would be), in DIR
     * @param bytes   the bytes of all exported objects
     */
    record Summary(String to, boolean dryRun, String format, int assets, int objects, long bytes, List<String> files) {
    }

    /** {@code stowage evidence export --to DIR [--dataset NAME[/REVISION]] [--run EXPERIMENT/RUN] [--dry-run] [--json]}. */
    @Command(name = "export", mixinStandardHelpOptions = true,
            description = "Write evidence.json and index.html (keys, bytes, SHA-256s, verifications; never a bucket,"
                    + " endpoint, credential or signed URL) into a new or empty DIR.")
    static final class Export implements Callable<Integer> {
        static final String JSON_FILE = "evidence.json";
        static final String HTML_FILE = "index.html";

        @Option(names = "--to", required = true, paramLabel = "DIR", description = "New or empty directory to write into.")
        Path to;

        @Option(names = "--dataset", paramLabel = "NAME[/REVISION]", description = "Only this dataset (every revision, or one).")
        String dataset;

        @Option(names = "--run", paramLabel = "EXPERIMENT/RUN", description = "Only the checkpoint steps of this run.")
        String run;

        @Option(names = "--dry-run", description = "Say what would be written; write nothing.")
        boolean dryRun;

        @Option(names = "--json", description = "Print a summary as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            EvidenceSelection selection = EvidenceSelection.of(dataset, run);
            Path dir = EvidenceWriter.target(to);
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            Optional<String> token = BearerToken.resolveReader();
            EvidenceLedger ledger = new EvidenceLedger(session.serviceUrl("ledger"), new HttpJson(token));
            EvidenceExport export = new EvidenceCollector(ledger, new Progress(System.err, false))
                    .collect(selection, Instant.now().truncatedTo(ChronoUnit.SECONDS));
            if (export.assets().isEmpty()) {
                throw new CliException(CliException.FAILED, "the ledger holds no " + selection.describe() + "; nothing written");
            }
            Map<String, String> files = new LinkedHashMap<>();
            files.put(JSON_FILE, export.toJson());
            files.put(HTML_FILE, EvidencePage.render(export));
            PublishGuard guard = PublishGuard.of(session, token);
            files.forEach(guard::check);
            if (!dryRun) {
                EvidenceWriter.write(dir, files);
            }
            report(dir, export, files);
            return 0;
        }

        private void report(Path dir, EvidenceExport export, Map<String, String> files) {
            if (json) {
                JsonOut.print(new Summary(dir.toString(), dryRun, export.format(), export.assets().size(),
                        export.objectCount(), export.bytes(), List.copyOf(files.keySet())));
                return;
            }
            String counts = export.assets().size() + " asset(s), " + export.objectCount() + " object(s), "
                    + export.bytes() + " bytes";
            System.out.println((dryRun ? "would write " : "wrote ") + dir.resolve(JSON_FILE) + " and " + HTML_FILE
                    + " (" + counts + ")" + (dryRun ? "; nothing written" : ""));
        }
    }
}
