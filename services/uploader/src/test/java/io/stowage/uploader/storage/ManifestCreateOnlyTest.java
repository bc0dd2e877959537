package io.stowage.uploader.storage;

import io.stowage.events.ObjectKind;
import io.stowage.events.Sha256;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectWriter;
import io.stowage.store.ReadResult;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.store.s3.UploadTuning;
import io.stowage.uploader.domain.UploadOutcome;
import io.stowage.uploader.domain.UploadTask;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two writers seal the same dataset revision (or publish the same model revision) at once, against the stack's real
 * S3Proxy: both HEAD the manifest's key and find it empty, then the other writer stores its manifest before this one's
 * PUT. The PUT is create-only, so the store refuses it and the first manifest stays: other content is a permanent
 * failure naming both digests, the same content is stored (skipped).
 */
@ExtendWith(StowageStackExtension.class)
class ManifestCreateOnlyTest {
    private static S3ObjectStore store;
    @TempDir
    Path dir;

    @BeforeAll
    static void open(StackEndpoints stack) {
        store = new S3ObjectStore(new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(),
                stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey()), UploadTuning.defaults());
    }

    @AfterAll
    static void close() {
        store.close();
    }

    @Test
    void aManifestStoredBetweenTheHeadAndThePutIsNotReplaced() throws Exception {
        for (ObjectKind kind : new ObjectKind[] {ObjectKind.DATASET_MANIFEST, ObjectKind.MODEL_MANIFEST}) {
            String key = "datasets/race-" + UUID.randomUUID() + "/r1/manifest.json";
            UploadTask mine = task(key, kind, "{\"shards\":[\"mine\"]}");
            UploadTask theirs = task(key, kind, "{\"shards\":[\"theirs\"]}");
            ObjectWriter racing = new AfterFirstHead(store, () ->
                    assertThat(TaskRunner.run(theirs, store)).as("the other writer stores its manifest in the window")
                            .isInstanceOf(UploadOutcome.Stored.class));

            UploadOutcome outcome = TaskRunner.run(mine, racing);

            assertThat(outcome).as(kind.name()).isInstanceOfSatisfying(UploadOutcome.Failed.class, f -> {
                assertThat(f.permanent()).isTrue();
                assertThat(f.reason()).contains(key + " already holds another", "(sha256 " + theirs.sha256(),
                        "so " + mine.localPath() + " (sha256 " + mine.sha256() + ") is not stored");
            });
            assertThat(store.readAndHash(key)).as("the first manifest stays")
                    .isEqualTo(new ReadResult(theirs.bytes(), theirs.sha256()));
        }
    }

    @Test
    void theSameManifestStoredInTheWindowIsStoredNotRefused() throws Exception {
        String key = "datasets/same-" + UUID.randomUUID() + "/r1/manifest.json";
        UploadTask mine = task(key, ObjectKind.DATASET_MANIFEST, "{\"shards\":[\"same\"]}");
        UploadTask theirs = task(key, ObjectKind.DATASET_MANIFEST, "{\"shards\":[\"same\"]}");
        ObjectWriter racing = new AfterFirstHead(store, () -> TaskRunner.run(theirs, store));

        assertThat(TaskRunner.run(mine, racing)).isInstanceOfSatisfying(UploadOutcome.Stored.class,
                s -> assertThat(s.skipped()).isTrue());
        assertThat(store.readAndHash(key)).isEqualTo(new ReadResult(mine.bytes(), mine.sha256()));
    }

    @Test
    void aShardIsStillPutOverOtherContentAsBefore() throws Exception {
        String key = "datasets/shard-" + UUID.randomUUID() + "/r1/shards/s.tar.zst";
        UploadTask first = task(key, ObjectKind.SHARD, "first");
        UploadTask second = task(key, ObjectKind.SHARD, "second");
        assertThat(TaskRunner.run(first, store)).isInstanceOf(UploadOutcome.Stored.class);
        assertThat(TaskRunner.run(second, store)).isInstanceOf(UploadOutcome.Stored.class);
        assertThat(store.readAndHash(key)).isEqualTo(new ReadResult(second.bytes(), second.sha256()));
    }

    @Test
    void aSmallFilePutFirstIsStoredOnceAndFoundStoredTheSecondTime() throws Exception {
        String key = "checkpoints/put-first-" + UUID.randomUUID() + "/run/000000000001/model.pt";
        UploadTask file = task(key, ObjectKind.CHECKPOINT_FILE, "weights");
        assertThat(TaskRunner.run(file, store, true, () -> { })).as("a new key: stored by the create-only PUT")
                .isInstanceOfSatisfying(UploadOutcome.Stored.class, s -> assertThat(s.skipped()).isFalse());
        // S3Proxy refuses the second create-only PUT (412): had it ignored If-None-Match, the PUT would have been
        // stored again and the outcome not skipped
        assertThat(TaskRunner.run(file, store, true, () -> { })).as("the same content again: the store refuses, the HEAD"
                + " finds it").isInstanceOfSatisfying(UploadOutcome.Stored.class, s -> assertThat(s.skipped()).isTrue());
        UploadTask other = task(key, ObjectKind.CHECKPOINT_FILE, "other weights");
        assertThat(TaskRunner.run(other, store, true, () -> { })).as("other content: put over it, as with the HEAD first")
                .isInstanceOfSatisfying(UploadOutcome.Stored.class, s -> assertThat(s.skipped()).isFalse());
        assertThat(store.readAndHash(key)).isEqualTo(new ReadResult(other.bytes(), other.sha256()));
    }

    @Test
    void aManifestPutFirstOverOtherContentIsRefusedAndTheFirstStays() throws Exception {
        String key = "datasets/put-first-" + UUID.randomUUID() + "/r1/manifest.json";
        UploadTask theirs = task(key, ObjectKind.DATASET_MANIFEST, "{\"shards\":[\"theirs\"]}");
        UploadTask mine = task(key, ObjectKind.DATASET_MANIFEST, "{\"shards\":[\"mine\"]}");
        assertThat(TaskRunner.run(theirs, store, true, () -> { })).isInstanceOf(UploadOutcome.Stored.class);
        assertThat(TaskRunner.run(mine, store, true, () -> { })).isInstanceOfSatisfying(UploadOutcome.Failed.class,
                f -> assertThat(f.permanent()).isTrue());
        assertThat(store.readAndHash(key)).isEqualTo(new ReadResult(theirs.bytes(), theirs.sha256()));
    }

    private UploadTask task(String key, ObjectKind kind, String content) throws Exception {
        Path file = Files.createTempFile(dir, "manifest", ".json");
        Files.writeString(file, content);
        return new UploadTask("primary", key, kind, file, Files.size(file), Sha256.of(file));
    }

    /** A writer that runs {@code window} once, right after its first HEAD has its answer. */
    private static final class AfterFirstHead extends ForwardingWriter {
        private Runnable window;

        AfterFirstHead(ObjectWriter writer, Runnable window) {
            super(writer);
            this.window = window;
        }

        @Override
        public Optional<ObjectHead> head(String key) {
            Optional<ObjectHead> head = writer.head(key);
            Runnable once = window;
            window = null;
            if (once != null) {
                once.run();
            }
            return head;
        }
    }
}
