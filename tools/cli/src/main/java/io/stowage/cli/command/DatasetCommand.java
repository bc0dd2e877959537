package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.Inputs;
import io.stowage.cli.NameArguments;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.client.ShardBuilderClient;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.events.AssetIds;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

/** {@code stowage dataset shard DIR}: cut a dataset into shards through the shard-builder, then wait for upload and verification. */
@Command(name = "dataset", mixinStandardHelpOptions = true, description = "Dataset commands.", subcommands = {DatasetCommand.Shard.class, DatasetVerifyCommand.class, DatasetFetchCommand.class})
public final class DatasetCommand {

    @Command(name = "shard", mixinStandardHelpOptions = true, description = "Cut DIR into tar.zst shards with member manifests; upload and verify them.")
    static final class Shard implements Callable<Integer> {
        @Parameters(paramLabel = "DIR", description = "The dataset directory.")
        Path dir;
        @Option(names = "--name", required = true, description = "Dataset name (ASCII letters, digits, '.', '_', '-').")
        String name;
        @Option(names = "--revision", required = true, description = "Dataset revision (same characters).")
        String revision;
        @Option(names = "--license", description = "Licence of the data, e.g. CC-BY-SA-3.0.")
        String license;
        @Option(names = "--source", description = "Where the data came from.")
        String source;
        /** Production bounds of a shard's target size in bytes (the shard-builder's ShardTarget: 1–4 GiB). */
        static final long MIN_SHARD_BYTES = 1L << 30;
        static final long MAX_SHARD_BYTES = 4L << 30;

        @Option(names = "--shard-bytes", description = "Target shard size in bytes (default: the service's, 2 GiB; production bounds 1-4 GiB).")
        Long shardBytes;
        @Option(names = "--allow-small-shards", description = "Permit a --shard-bytes outside 1-4 GiB (tests, demos).")
        boolean allowSmallShards;
        @Option(names = "--no-wait", description = "Return once the shards are built, without waiting for verification.")
        boolean noWait;
        @Option(names = "--json", description = "Print the result as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            Path source = dir.toAbsolutePath().normalize();
            NameArguments.require("--name", name);
            NameArguments.require("--revision", revision);
            Inputs.requireReadableDirectory("dataset directory", source);
            requireProductionBounds(shardBytes, allowSmallShards);
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            Progress progress = new Progress(System.err, json);
            if (blank(license) && blank(this.source)) {
                progress.warn(AssetIds.dataset(name, revision) + " has neither --license nor --source: it is archived,"
                        + " but the gate can never release its directory (condition 3, dataset-metadata-missing)");
            }
            progress.step("sharding " + source);
            ShardBuilderClient.ShardResult result = new ShardBuilderClient(session.serviceUrl("shard-builder")).shard(
                    new ShardBuilderClient.ShardRequest(source.toString(), name, revision, license, this.source, shardBytes,
                            session.stagingDir(), allowSmallShards));
            progress.detail(Inputs.count(result.shards(), "shard") + ", " + Inputs.count(result.members(), "member") + ", " + result.memberBytes() + " bytes");
            if (result.alreadySealed()) {
                progress.detail(result.assetId() + " is already sealed with the same content (manifest sha256 "
                        + result.manifestSha256() + "): already stored, nothing sent");
            }
            if (!noWait) {
                progress.step("waiting for upload and verification");
                new LedgerClient(session.serviceUrl("ledger")).awaitVerified(AssetIds.dataset(name, revision),
                        2 * result.shards() + 1, Duration.ofHours(6));
                progress.detail("every object uploaded and verified");
            }
            if (json) {
                JsonOut.print(result);
            } else {
                System.out.println(result.assetId() + ": " + Inputs.count(result.shards(), "shard") + ", manifest sha256 "
                        + result.manifestSha256() + (result.alreadySealed() ? " (already sealed: nothing sent)" : ""));
            }
            return 0;
        }

        /**
         * Refuses, before anything is sent, a {@code --shard-bytes} outside the production bounds (1–4 GiB,
         * {@value #MIN_SHARD_BYTES}–{@value #MAX_SHARD_BYTES} bytes) unless {@code --allow-small-shards} is given;
         * the shard-builder enforces the same bounds, this names the CLI's flag instead of the API's field.
         *
         * @param shardBytes the target shard size in bytes, or null for the service's default
         * @throws CliException exit 2 with a one-line reason
         */
        static void requireProductionBounds(Long shardBytes, boolean allowSmallShards) {
            if (shardBytes == null) {
                return;
            }
            if (shardBytes <= 0) {
                throw new CliException(CliException.USAGE, "--shard-bytes must be a positive number of bytes, not " + shardBytes);
            }
            if (!allowSmallShards && (shardBytes < MIN_SHARD_BYTES || shardBytes > MAX_SHARD_BYTES)) {
                throw new CliException(CliException.USAGE, "--shard-bytes " + shardBytes + " is outside the production"
                        + " bounds of 1-4 GiB (" + MIN_SHARD_BYTES + "-" + MAX_SHARD_BYTES + " bytes); add"
                        + " --allow-small-shards for tests and demos");
            }
        }

        private static boolean blank(String s) {
            return s == null || s.isBlank();
        }
    }
}
