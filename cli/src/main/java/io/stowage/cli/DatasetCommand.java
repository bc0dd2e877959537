package io.stowage.cli;

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
final class DatasetCommand {

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
            Session session = Session.readFrom(StowageHome.fromEnvironment().session());
            Progress progress = new Progress(System.err, json);
            progress.step("sharding " + source);
            ShardBuilderClient.ShardResult result = new ShardBuilderClient(session.serviceUrl("shard-builder")).shard(
                    new ShardBuilderClient.ShardRequest(source.toString(), name, revision, license, this.source, shardBytes,
                            session.stagingDir(), allowSmallShards));
            progress.detail(Inputs.count(result.shards(), "shard") + ", " + Inputs.count(result.members(), "member") + ", " + result.memberBytes() + " bytes");
            if (!noWait) {
                progress.step("waiting for upload and verification");
                new LedgerClient(session.serviceUrl("ledger")).awaitVerified(AssetIds.dataset(name, revision),
                        2 * result.shards() + 1, Duration.ofHours(6));
                progress.detail("every object uploaded and verified");
            }
            if (json) {
                JsonOut.print(result);
            } else {
                System.out.println(result.assetId() + ": " + Inputs.count(result.shards(), "shard") + ", manifest sha256 " + result.manifestSha256());
            }
            return 0;
        }
    }
}
