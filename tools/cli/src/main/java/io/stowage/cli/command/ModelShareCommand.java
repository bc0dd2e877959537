package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.NameArguments;
import io.stowage.cli.client.EventPublisher;
import io.stowage.cli.model.ModelFetcher;
import io.stowage.cli.model.ShareRecipe;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.AssetIds;
import io.stowage.events.EventMeta;
import io.stowage.events.ModelShared;
import io.stowage.events.ObjectKeys;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.events.manifest.ModelManifest;
import io.stowage.store.StoreConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code stowage model share --model M --revision R [--expires 72h]}: one presigned GET URL per file of a stored model
 * revision (at most 7 days), printed once to standard output with each file's bytes and SHA-256 and a {@code curl} +
 * {@code sha256sum -c} recipe. The URLs are never logged, written to a file or sent: the {@code model.shared} event
 * the ledger keeps says who shared which revision for how long, nothing more.
 */
@Command(name = "share", mixinStandardHelpOptions = true,
        description = {"Print one presigned GET URL per file of a stored model revision (at most 7 days), with each"
                + " file's bytes and SHA-256 and a curl + sha256sum -c recipe. Shown once: the URLs are never logged"
                + " and never stored; the ledger records that a share was made, by whom and for how long."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:printed", "1:not stored, store or Kafka unreachable", "2:bad input (a name, --expires"
                + " over 7 days or malformed)"})
final class ModelShareCommand implements Callable<Integer> {
    @Option(names = "--model", required = true, description = "Model name.")
    String model;
    @Option(names = "--revision", required = true, description = "Revision name.")
    String revision;
    @Option(names = "--expires", defaultValue = "72h",
            description = "How long the URLs work: 90m, 72h, 7d, 3600s (default ${DEFAULT-VALUE}); at most 7d.")
    String expires;
    @Option(names = "--json", description = "Print {asset, sharedBy, expiresInSeconds, expiresAt, files:[{path, bytes, sha256, url}], recipe} as one line.")
    boolean json;

    @Override
    public Integer call() {
        NameArguments.require("--model", model);
        NameArguments.require("--revision", revision);
        Duration lifetime;
        try {
            lifetime = PresignCommand.expiry(expires);
        } catch (IllegalArgumentException e) {
            throw new CliException(CliException.USAGE, e.getMessage());
        }
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        ModelManifest manifest;
        String manifestSha256;
        try (PrimaryStore store = new PrimaryStore(session.stack())) {
            manifest = new ModelFetcher(store).manifest(model, revision);
            // manifest() checked the bytes it read against this SHA-256
            manifestSha256 = store.head(ObjectKeys.modelManifest(model, revision)).orElseThrow().sha256();
        }
        StoreConfig config = new StoreConfig("primary", URI.create(session.stack().s3Endpoint()), session.stack().s3Region(),
                session.stack().primaryBucket(), session.stack().s3AccessKey(), session.stack().s3SecretKey());
        List<ShareRecipe.SharedFile> files = new ArrayList<>();
        for (MemberEntry file : manifest.files()) {
            String key = ObjectKeys.modelFile(model, revision, file.sha256(), file.path());
            files.add(new ShareRecipe.SharedFile(file, PresignCommand.presign(config, key, lifetime)));
        }
        Instant expiresAt = Instant.now().plus(lifetime);
        String sharedBy = System.getProperty("user.name", "unknown");
        try (EventPublisher events = new EventPublisher(session.kafkaClient())) {
            events.publish(ModelShared.of(EventMeta.first(AssetIds.model(model, revision), Clock.systemUTC()), model,
                    revision, sharedBy, lifetime.getSeconds(), expiresAt.toString(), files.size(), manifestSha256));
        }
        String recipe = ShareRecipe.of(model + "-" + revision, files);
        if (json) {
            printJson(manifest, files, lifetime, expiresAt, sharedBy, recipe);
        } else {
            System.out.println("# " + AssetIds.model(model, revision) + ": " + files.size() + " file(s), "
                    + manifest.totalBytes() + " bytes, licence " + manifest.license() + "; links work until " + expiresAt
                    + " (" + lifetime.getSeconds() + " s)");
            System.out.println("# bytes  sha256  path  url");
            for (ShareRecipe.SharedFile f : files) {
                System.out.println(f.file().bytes() + "  " + f.file().sha256() + "  " + f.file().path() + "  " + f.url());
            }
            System.out.println("# to download and check, run in bash:");
            System.out.print(recipe);
        }
        return 0;
    }

    private static void printJson(ModelManifest manifest, List<ShareRecipe.SharedFile> files, Duration lifetime,
                                  Instant expiresAt, String sharedBy, String recipe) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (ShareRecipe.SharedFile f : files) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("path", f.file().path());
            one.put("bytes", f.file().bytes());
            one.put("sha256", f.file().sha256());
            one.put("url", f.url().toString());
            out.add(one);
        }
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("asset", AssetIds.model(manifest.model(), manifest.revision()));
        all.put("sharedBy", sharedBy);
        all.put("expiresInSeconds", lifetime.getSeconds());
        all.put("expiresAt", expiresAt.toString());
        all.put("license", manifest.license());
        all.put("files", out);
        all.put("recipe", recipe);
        JsonOut.print(all);
    }
}
