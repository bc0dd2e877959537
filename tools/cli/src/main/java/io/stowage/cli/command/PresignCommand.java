package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.store.PresignPolicy;
import io.stowage.store.s3.S3UrlSigner;
import io.stowage.stack.StackEndpoints;
import io.stowage.store.ObjectHead;
import io.stowage.store.StoreConfig;
import io.stowage.store.StoreException;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.store.s3.UploadTuning;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code stowage presign KEY --expires 24h [--store primary|replica] [--allow-prefix P]... [--json]}: prints a
 * presigned GET URL (SigV4, {@link S3UrlSigner}) for one object of the session's store. Only keys under an
 * allowlisted prefix ({@link PresignPolicy}: {@code models/} by default), at most 7 days. The URL goes to
 * standard output only: it is never logged, never written to a file, and no event is sent (the ledger never sees it).
 */
@Command(name = "presign", mixinStandardHelpOptions = true,
        description = "Print a presigned GET URL for one object under an allowed prefix (models/ by default), valid at most 7 days.")
public final class PresignCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "KEY", description = "Object key, e.g. models/<model>/<revision>/<sha256>/<file>.")
    String key;
    @Option(names = "--expires", defaultValue = "24h",
            description = "How long the URL works: 90m, 24h, 7d, 3600s or ISO-8601 (default ${DEFAULT-VALUE}); at most 7d = 604800 s.")
    String expires;
    @Option(names = "--store", defaultValue = "primary", description = "primary (default) or replica.")
    String store;
    @Option(names = "--allow-prefix", paramLabel = "PREFIX",
            description = "Also allow keys under PREFIX (repeatable); the environment's " + PresignPolicy.ENVIRONMENT
                    + " (comma-separated) adds more.")
    List<String> allowPrefixes = new ArrayList<>();
    @Option(names = "--json", description = "Print {key, store, bucket, url, expiresInSeconds, expiresAt} as one line of JSON.")
    boolean json;

    @Override
    public Integer call() {
        Duration lifetime;
        PresignPolicy policy;
        try {
            lifetime = expiry(expires);
            policy = PresignPolicy.of(System.getenv(PresignPolicy.ENVIRONMENT), allowPrefixes);
        } catch (IllegalArgumentException e) {
            throw new CliException(CliException.USAGE, e.getMessage());
        }
        if (!store.equals("primary") && !store.equals("replica")) {
            throw new CliException(CliException.USAGE, "--store must be primary or replica, not '" + store + "'");
        }
        String malformed = PresignPolicy.keyProblem(key);
        if (malformed != null) {
            throw new CliException(CliException.USAGE, malformed);
        }
        String refusal = policy.refusal(key);
        if (refusal != null) {
            throw new CliException(CliException.DENIED, "refused: " + refusal + "; or --allow-prefix");
        }
        StoreConfig config = config(Session.readFrom(StowageHome.fromEnvironment().session()).stack());
        requireObject(config);
        Instant now = Instant.now();
        URI url = presign(config, key, lifetime);
        if (json) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("key", key);
            out.put("store", store);
            out.put("bucket", config.bucket());
            out.put("url", url.toString());
            out.put("expiresInSeconds", lifetime.getSeconds());
            out.put("expiresAt", now.plus(lifetime).toString());
            JsonOut.print(out);
        } else {
            System.out.println(url);
        }
        return 0;
    }

    /**
     * @param text {@code <n>s}, {@code <n>m}, {@code <n>h} or {@code <n>d} (e.g. {@code 24h}), or ISO-8601 ({@code PT24H})
     * @return the lifetime, 1 s to {@link PresignPolicy#MAX_SECONDS}
     * @throws IllegalArgumentException when unreadable, zero, or over 7 days (the message is one line)
     */
    public static Duration expiry(String text) {
        Duration duration;
        try {
            duration = io.stowage.cli.ResourceUnits.duration(text);
        } catch (CliException e) {
            throw new IllegalArgumentException("--expires " + e.getMessage());
        }
        return PresignPolicy.lifetime(duration, "--expires '" + text + "'");
    }

    /**
     * @param config   the store, its keys and bucket
     * @param key      an object key the caller has already checked against {@link PresignPolicy}
     * @param lifetime 1 s to 7 days
     * @return a path-style URL that answers GET with the object's bytes until the lifetime ends
     */
    static URI presign(StoreConfig config, String key, Duration lifetime) {
        try (S3UrlSigner signer = new S3UrlSigner(config)) {
            return signer.presignGet(key, lifetime);
        }
    }

    private StoreConfig config(StackEndpoints stack) {
        return new StoreConfig(store, URI.create(stack.s3Endpoint()), stack.s3Region(),
                store.equals("replica") ? stack.replicaBucket() : stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey());
    }

    /** A URL for a missing object would answer 404 to whoever receives it: say so now instead. */
    private void requireObject(StoreConfig config) {
        Optional<ObjectHead> head;
        try (S3ObjectStore objects = new S3ObjectStore(config, UploadTuning.defaults())) {
            head = objects.head(key);
        } catch (StoreException e) {
            throw new CliException(CliException.FAILED, "cannot reach the " + store + " store: " + e.getMessage(), e);
        }
        if (head.isEmpty()) {
            throw new CliException(CliException.FAILED, "no object at " + store + ":" + config.bucket() + "/" + key);
        }
    }
}
