package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.audit.AuditStoreEntry;
import io.stowage.cli.audit.AuditStoreLedger;
import io.stowage.cli.audit.AuditStoreListing;
import io.stowage.cli.audit.AuditStoreReconciler;
import io.stowage.cli.audit.AuditStoreReport;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.stack.StackEndpoints;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.store.s3.UploadTuning;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code stowage audit store [--json]}: consumes the buckets of the session's primary and replica stores (LIST +
 * HEAD) and the ledger's {@code GET /api/objects}, and produces per store a summary line and one line per object
 * missing from the bucket, unknown to the ledger, or of another size or SHA-256; exit 0 when clean, 1 otherwise.
 */
@Command(name = "store", mixinStandardHelpOptions = true,
        description = "Reconcile the buckets with the ledger: missing, unknown, size or SHA-256 disagreements (exit 1 on any).")
final class AuditStoreCommand implements Callable<Integer> {
    @Option(names = "--json", description = "Print the reports as one line of JSON.")
    boolean json;

    @Override
    public Integer call() {
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        StackEndpoints stack = session.stack();
        AuditStoreLedger ledger = new AuditStoreLedger(session.serviceUrl("ledger"));
        List<AuditStoreReport> reports = new ArrayList<>();
        reports.add(audit(ledger, config(stack, "primary", stack.primaryBucket())));
        reports.add(audit(ledger, config(stack, "replica", stack.replicaBucket())));
        if (json) {
            JsonOut.print(reports);
        } else {
            for (AuditStoreReport report : reports) {
                System.out.println(report.summary());
                report.findings().forEach(f -> System.out.println(f.line(report.store())));
            }
        }
        return reports.stream().allMatch(AuditStoreReport::clean) ? 0 : CliException.FAILED;
    }

    /**
     * @return the report of one bucket: the whole bucket listed, the ledger's objects of that store and bucket
     * @throws io.stowage.store.StoreException when the bucket cannot be listed
     */
    static AuditStoreReport audit(AuditStoreLedger ledger, StoreConfig config) {
        List<AuditStoreEntry> known = ledger.objects(config.name(), config.bucket());
        List<AuditStoreEntry> held;
        try (S3ObjectStore store = new S3ObjectStore(config, UploadTuning.defaults())) {
            held = AuditStoreListing.of(store, "");
        }
        int uncompared = (int) held.stream().map(AuditStoreEntry::key).filter(AuditStoreReconciler::uncompared).count();
        return new AuditStoreReport(config.name(), config.bucket(), held.size(), known.size(),
                AuditStoreReconciler.reconcile(known, held), uncompared);
    }

    private static StoreConfig config(StackEndpoints stack, String name, String bucket) {
        return new StoreConfig(name, URI.create(stack.s3Endpoint()), stack.s3Region(), bucket, stack.s3AccessKey(),
                stack.s3SecretKey());
    }
}
