package io.stowage.gatekeeper.messaging;

import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Puts the objects a ledger stub's evidence names into the embedded stack's real S3 server (the stores the gatekeeper
 * under test HEADs at decision time), as the uploader would have: the local file's bytes when the evidence names one
 * of the recorded size, with the {@code sha256} metadata the evidence records; and removes one again.
 */
final class StoredEvidence {
    private static S3Client client;

    private StoredEvidence() {
    }

    private static synchronized S3Client client() {
        if (client == null) {
            Config config = ConfigProvider.getConfig();
            client = S3Client.builder()
                    .endpointOverride(URI.create(config.getValue("stowage.store.primary.endpoint", String.class)))
                    .region(Region.of(config.getOptionalValue("stowage.store.primary.region", String.class)
                            .orElse("us-east-1")))
                    .forcePathStyle(true)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                            config.getValue("stowage.store.primary.access-key-id", String.class),
                            config.getValue("stowage.store.primary.secret-access-key", String.class))))
                    .build();
        }
        return client;
    }

    private static String bucket(String store) {
        return ConfigProvider.getConfig().getValue("stowage.store." + store + ".bucket", String.class);
    }

    /** Stores every object of {@code asset} (primary and replica) under its key. */
    static void put(AssetEvidence asset) {
        if (asset == null || asset.objects() == null) {
            return;
        }
        for (ObjectEvidence o : asset.objects()) {
            client().putObject(b -> b.bucket(bucket(o.store())).key(o.key()).metadata(Map.of("sha256", o.sha256())),
                    RequestBody.fromBytes(content(o)));
        }
    }

    /** Removes the object at {@code key} from {@code store} ("primary" or "replica"). */
    static void remove(String store, String key) {
        client().deleteObject(b -> b.bucket(bucket(store)).key(key));
    }

    private static byte[] content(ObjectEvidence o) {
        try {
            Path local = o.localPath() == null ? null : Path.of(o.localPath());
            if (local != null && Files.isRegularFile(local) && Files.size(local) == o.bytes()) {
                return Files.readAllBytes(local);
            }
            return new byte[Math.toIntExact(o.bytes())];
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
