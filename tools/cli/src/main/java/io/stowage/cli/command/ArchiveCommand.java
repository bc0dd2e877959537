package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.Inputs;
import io.stowage.cli.NameArguments;
import io.stowage.cli.client.BaselineClient;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.ServiceLauncher;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.AssetIds;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code stowage archive DIR --model M --milestone X [--dry-run] [--json] [--no-wait]}: archive one directory (a
 * baseline or a finished result set) as one hash-bound {@code tar.zst} at
 * {@code archives/baselines/<model>/<milestone>/<sha256>.tar.zst} with its member manifest, through the shard-builder,
 * uploader and verifier, so that {@code stowage release DIR} can then pass the gate. Deterministic: the same files
 * give the same SHA-256 and key; a second run finds them verified in the ledger and says {@code already stored}.
 * Exit 2 for a bad name or directory, 1 when building, uploading or verifying fails.
 */
@Command(name = "archive", mixinStandardHelpOptions = true,
        description = "Archive DIR as one hash-bound tar.zst (with its member manifest) under archives/baselines/<model>/<milestone>/; upload and verify it.")
public final class ArchiveCommand implements Callable<Integer> {
    private static final Duration WAIT = Duration.ofHours(6);

    @Parameters(paramLabel = "DIR", description = "The directory to archive (a baseline or a finished result set).")
    Path dir;
    @Option(names = "--model", required = true, description = "Model name (ASCII letters, digits, '.', '_', '-').")
    String model;
    @Option(names = "--milestone", required = true, description = "Milestone name (same characters).")
    String milestone;
    @Option(names = "--dry-run", description = "Print the plan (members, bytes, target key) and write nothing.")
    boolean dryRun;
    @Option(names = "--no-wait", description = "Return once the archive is built, without waiting for upload and verification.")
    boolean noWait;
    @Option(names = "--json", description = "Print the result as one line of JSON.")
    boolean json;

    @Override
    public Integer call() {
        NameArguments.require("--model", model);
        NameArguments.require("--milestone", milestone);
        Path source = dir.toAbsolutePath().normalize();
        Inputs.requireReadableDirectory("directory", source);
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        Progress progress = new Progress(System.err, json);
        BaselineClient builder = new BaselineClient(session.serviceUrl("shard-builder"));
        LedgerClient ledger = new LedgerClient(session.serviceUrl("ledger"));

        progress.step("hashing " + source);
        BaselineClient.Result plan = builder.archive(new BaselineClient.Request(source.toString(), model, milestone,
                session.stagingDir(), true));
        progress.detail(Inputs.count(plan.memberCount(), "file") + ", " + plan.memberBytes() + " bytes -> " + plan.key());
        if (dryRun) {
            print(plan, "dry-run");
            return 0;
        }
        if (alreadyStored(ledger, plan)) {
            print(plan, "already-stored");
            return 0;
        }
        progress.step("archiving " + source);
        BaselineClient.Result built = builder.archive(new BaselineClient.Request(source.toString(), model, milestone,
                session.stagingDir(), false));
        if (noWait) {
            print(built, "built");
            return 0;
        }
        progress.step("waiting for upload and verification of " + built.key());
        awaitVerified(ledger, built, progress);
        print(built, "stored");
        return 0;
    }

    /** @return true when the ledger holds this very archive for this directory, both objects verified OK */
    private static boolean alreadyStored(LedgerClient ledger, BaselineClient.Result plan) {
        Optional<AssetEvidence> asset = ledger.asset(plan.assetId());
        if (asset.isEmpty() || !plan.sourceDir().equals(asset.get().localRoot())
                || !plan.manifestSha256().equals(asset.get().manifestSha256())) {
            return false;
        }
        return verified(asset.get(), plan.key(), plan.bytes(), plan.sha256()).isPresent()
                && verified(asset.get(), plan.membersKey(), plan.membersBytes(), plan.membersSha256()).isPresent();
    }

    private static void awaitVerified(LedgerClient ledger, BaselineClient.Result built, Progress progress) {
        Instant deadline = Instant.now().plus(WAIT);
        String waitingFor = "the ledger to record " + built.assetId();
        while (Instant.now().isBefore(deadline)) {
            Optional<AssetEvidence> asset = ledger.asset(built.assetId());
            if (asset.isPresent()) {
                AssetEvidence a = asset.get();
                failOnBadResult(a, built.key(), built.sha256());
                failOnBadResult(a, built.membersKey(), built.membersSha256());
                boolean archive = verified(a, built.key(), built.bytes(), built.sha256()).isPresent();
                boolean members = verified(a, built.membersKey(), built.membersBytes(), built.membersSha256()).isPresent();
                if (archive && members && built.manifestSha256().equals(a.manifestSha256())) {
                    progress.detail("archive and member manifest uploaded and verified");
                    return;
                }
                waitingFor = built.assetId() + ": archive " + (archive ? "verified" : "pending") + ", member manifest "
                        + (members ? "verified" : "pending");
            }
            ServiceLauncher.pause(300);
        }
        throw new CliException(CliException.FAILED, "timed out after " + WAIT.toSeconds() + " s waiting for " + waitingFor);
    }

    /** @return the primary copy at {@code key} with this content whose newest HEAD and full read are both OK */
    private static Optional<ObjectEvidence> verified(AssetEvidence asset, String key, long bytes, String sha256) {
        return copies(asset, key, sha256).stream().filter(o -> o.bytes() == bytes
                && o.headResult() == VerifyResult.OK && o.fullReadResult() == VerifyResult.OK).findFirst();
    }

    private static void failOnBadResult(AssetEvidence asset, String key, String sha256) {
        if (asset.uploadFailures() != null) {
            asset.uploadFailures().stream().filter(f -> f.contains(key)).findFirst().ifPresent(f -> {
                throw new CliException(CliException.FAILED, "upload of " + key + " failed: " + f);
            });
        }
        for (ObjectEvidence o : copies(asset, key, sha256)) {
            for (VerifyResult result : new VerifyResult[]{o.headResult(), o.fullReadResult()}) {
                if (result != null && result != VerifyResult.OK) {
                    throw new CliException(CliException.FAILED, "verification of " + key + " answered " + result);
                }
            }
        }
    }

    private static List<ObjectEvidence> copies(AssetEvidence asset, String key, String sha256) {
        return asset.objects() == null ? List.of() : asset.objects().stream()
                .filter(o -> "primary".equals(o.store()) && key.equals(o.key()) && sha256.equals(o.sha256())).toList();
    }

    private void print(BaselineClient.Result r, String status) {
        if (json) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("status", status);
            out.put("assetId", r.assetId());
            out.put("dir", r.sourceDir());
            out.put("key", r.key());
            out.put("bytes", r.bytes());
            out.put("sha256", r.sha256());
            out.put("membersKey", r.membersKey());
            out.put("membersBytes", r.membersBytes());
            out.put("membersSha256", r.membersSha256());
            out.put("memberCount", r.memberCount());
            out.put("memberBytes", r.memberBytes());
            out.put("manifestSha256", r.manifestSha256());
            out.put("eventId", r.eventId());
            out.put("members", r.members());
            JsonOut.print(out);
            return;
        }
        switch (status) {
            case "dry-run" -> {
                System.out.println("dry run: would archive " + r.sourceDir() + " (" + Inputs.count(r.memberCount(), "file")
                        + ", " + r.memberBytes() + " bytes) as " + r.key() + " (" + r.bytes() + " bytes)");
                r.members().forEach(m -> System.out.println("  " + m.bytes() + "  " + m.sha256() + "  " + m.path()));
                System.out.println("member manifest " + r.membersKey() + "; nothing written");
            }
            case "already-stored" -> System.out.println(r.assetId() + ": already stored and verified: " + r.key()
                    + " (sha256 " + r.sha256() + ")");
            case "built" -> System.out.println(r.assetId() + ": built " + r.key() + " (sha256 " + r.sha256()
                    + "); not waiting for upload and verification");
            default -> System.out.println(r.assetId() + ": stored and verified " + r.key() + " ("
                    + Inputs.count(r.memberCount(), "file") + ", " + r.memberBytes() + " bytes; archive " + r.bytes()
                    + " bytes, sha256 " + r.sha256() + ")");
        }
    }
}
