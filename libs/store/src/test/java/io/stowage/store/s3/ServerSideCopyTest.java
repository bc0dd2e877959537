package io.stowage.store.s3;

import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.StoreConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Server-side copy against the embedded S3Proxy: a checkpoint file copied to a model key with one CopyObject, and a
 * 12 MiB one in 5 MiB UploadPartCopy parts (threshold lowered from 5 GiB to 8 MiB); each copy is re-read in full
 * and hashes to the source's SHA-256, carries it as metadata, and the source is still there.
 */
@ExtendWith(StowageStackExtension.class)
class ServerSideCopyTest {
    @TempDir
    Path dir;

    @Test
    void copiesInOneRequestOrInPartsAndTheCopyReadsBackWithTheSourcesSha256(StackEndpoints stack) throws Exception {
        StoreConfig config = new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(),
                stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey());
        String id = UUID.randomUUID().toString().substring(0, 8);
        try (S3ObjectStore store = new S3ObjectStore(config, UploadTuning.defaults())) {
            for (int size : new int[] {300_000, 12 << 20}) {
                byte[] content = new byte[size];
                new Random(size).nextBytes(content);
                String sha = Sha256.of(content);
                Path file = Files.write(dir.resolve("f" + size), content);
                String source = ObjectKeys.checkpointFile("exp-" + id, "run1", 150, sha, "model.pt");
                store.put(source, file, size, sha, Map.of("kind", "CHECKPOINT_FILE"));
                String target = ObjectKeys.modelFile("m-" + id, "r1", sha, "model.pt");

                int parts = store.copy(source, target, Map.of("kind", "MODEL_FILE"), 8L << 20, 5L << 20);

                assertThat(parts).isEqualTo(size > 8 << 20 ? 3 : 0);
                assertThat(store.head(target).orElseThrow().sha256()).isEqualTo(sha);
                assertThat(store.head(target).orElseThrow().bytes()).isEqualTo(size);
                assertThat(store.readAndHash(target).sha256()).isEqualTo(sha);
                assertThat(store.readAndHash(source).sha256()).as("the source is kept").isEqualTo(sha);
            }
            assertThatThrownBy(() -> store.copy("checkpoints/none/" + id, "models/none/" + id, Map.of(), 8L << 20, 5L << 20))
                    .isInstanceOf(ObjectNotFoundException.class);
        }
    }
}
