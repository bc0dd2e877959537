package io.stowage.cli.audit;

import io.stowage.cli.audit.AuditStoreFinding.Problem;
import io.stowage.events.Sha256;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.S3Clients;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.store.s3.UploadTuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bucket side of {@code stowage audit store} against the real S3Proxy: objects uploaded by {@link S3ObjectStore}
 * (with their sha256 metadata), one deleted behind the ledger's back, one written without metadata and one the
 * ledger never heard of, listed and HEADed by {@link AuditStoreListing} and reconciled with a hand-made ledger list.
 */
@ExtendWith(StowageStackExtension.class)
class AuditStoreS3Test {
    @TempDir
    Path dir;

    @Test
    void findsTheObjectDeletedBehindTheLedgersBackAndEveryOtherDisagreement(StackEndpoints stack) throws Exception {
        StoreConfig config = new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(),
                stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey());
        String prefix = "audit-store-" + UUID.randomUUID() + "/";
        byte[] good = "good shard bytes".getBytes(StandardCharsets.UTF_8);
        byte[] gone = "deleted behind the ledger's back".getBytes(StandardCharsets.UTF_8);
        byte[] bare = "no sha256 metadata".getBytes(StandardCharsets.UTF_8);
        byte[] stray = "the ledger never heard of me".getBytes(StandardCharsets.UTF_8);

        try (S3ObjectStore store = new S3ObjectStore(config, UploadTuning.defaults());
             S3AsyncClient s3 = S3Clients.create(config)) {
            put(store, prefix + "a-good", good);
            put(store, prefix + "b-gone", gone);
            put(store, prefix + "d-stray", stray);
            s3.putObject(b -> b.bucket(config.bucket()).key(prefix + "c-bare"), AsyncRequestBody.fromBytes(bare)).join();
            s3.deleteObject(b -> b.bucket(config.bucket()).key(prefix + "b-gone")).join();

            List<AuditStoreEntry> held = AuditStoreListing.of(store, prefix);
            assertThat(held).containsExactly(
                    new AuditStoreEntry(prefix + "a-good", good.length, Sha256.of(good)),
                    new AuditStoreEntry(prefix + "c-bare", bare.length, null),
                    new AuditStoreEntry(prefix + "d-stray", stray.length, Sha256.of(stray)));

            List<AuditStoreEntry> ledger = List.of(
                    new AuditStoreEntry(prefix + "a-good", good.length, Sha256.of(good)),
                    new AuditStoreEntry(prefix + "b-gone", gone.length, Sha256.of(gone)),
                    new AuditStoreEntry(prefix + "c-bare", bare.length + 1, Sha256.of(bare)));
            assertThat(AuditStoreReconciler.reconcile(ledger, held)).containsExactly(
                    new AuditStoreFinding(Problem.MISSING, prefix + "b-gone", null, null),
                    new AuditStoreFinding(Problem.SIZE, prefix + "c-bare", Long.toString(bare.length + 1),
                            Long.toString(bare.length)),
                    new AuditStoreFinding(Problem.SHA256, prefix + "c-bare", Sha256.of(bare), "none"),
                    new AuditStoreFinding(Problem.UNKNOWN, prefix + "d-stray", null, null));
            assertThat(AuditStoreReconciler.reconcile(ledger.subList(0, 1), held.subList(0, 1))).isEmpty();
        }
    }

    private void put(S3ObjectStore store, String key, byte[] content) throws Exception {
        Path file = Files.write(dir.resolve(UUID.randomUUID().toString()), content);
        store.put(key, file, content.length, Sha256.of(content), Map.of());
    }
}
