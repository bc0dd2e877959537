package io.stowage.store.s3;

import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.ObjectHead;
import io.stowage.store.ReadResult;
import io.stowage.store.StoreConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every kind of key {@link ObjectKeys} forms, with edge-case but valid segments (dots, dashes, underscores,
 * digits, 200-character segments (the longest the rule allows), a key of exactly 1,024 bytes), round-trips byte for byte through S3Proxy: PUT,
 * HEAD (size, SHA-256 metadata), GET (bytes), and LIST (the listed key equals the key sent, byte for byte, with
 * the bucket's listing under the key's own parent prefix and under the test's root prefix).
 */
@ExtendWith(StowageStackExtension.class)
class ObjectKeysRoundTripTest {
    @TempDir
    Path dir;

    @Test
    void everyGeneratedKeyKindRoundTripsThroughPutHeadGetAndList(StackEndpoints stack) throws Exception {
        String id = UUID.randomUUID().toString().substring(0, 8);
        String sha = "0123456789abcdef".repeat(4);
        String longName = ("L" + id + "-").repeat(200).substring(0, io.stowage.events.Validation.MAX_SEGMENT_CHARS);
        // checkpoints/ + 200 + / + 9 + / + 12 + / + 64 + / = 301 bytes, so a 723-byte file path makes 1,024
        String longFile = "x".repeat(200) + "/" + "y".repeat(200) + "/" + "z".repeat(200) + "/" + "w".repeat(120);
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("shard", ObjectKeys.shard("ds.v1_" + id + "-a", "2026.11-30_r0", sha));
        keys.put("members", ObjectKeys.members("ds.v1_" + id + "-a", "2026.11-30_r0", sha));
        keys.put("dataset manifest", ObjectKeys.datasetManifest("...dots" + id + "...", "-_-"));
        keys.put("model file", ObjectKeys.modelFile("m0d3l_" + id, "v.1-2_3", sha, "weights-00001-of-00002.safetensors"));
        keys.put("checkpoint file", ObjectKeys.checkpointFile("exp." + id, "run_007-b", 123_456_789_012L, sha,
                "rank-0/model.v2_final-1.pt"));
        keys.put("checkpoint latest", ObjectKeys.checkpointLatest("exp." + id, "run_007-b"));
        keys.put("baseline archive", ObjectKeys.baselineArchive("M_" + id, "milestone-1.0", sha));
        keys.put("long segments", ObjectKeys.checkpointFile(longName, longName, 0, sha, longName));
        keys.put("1024-byte key", ObjectKeys.checkpointFile(longName, "r" + id, 1, sha, longFile));
        assertThat(keys.get("1024-byte key").getBytes(StandardCharsets.UTF_8)).hasSize(ObjectKeys.MAX_KEY_BYTES);

        StoreConfig config = new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(),
                stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey());
        Random random = new Random(4);
        try (S3ObjectStore store = new S3ObjectStore(config, UploadTuning.defaults());
             S3AsyncClient raw = S3Clients.create(config)) {
            List<String> failures = new ArrayList<>();
            for (Map.Entry<String, String> entry : keys.entrySet()) {
                String key = entry.getValue();
                byte[] content = new byte[1 + random.nextInt(50_000)];
                random.nextBytes(content);
                Path file = Files.write(dir.resolve("f" + failures.size() + random.nextInt()), content);
                String contentSha = Sha256.of(content);

                store.put(key, file, content.length, contentSha, Map.of("kind", "TEST"));

                ObjectHead head = store.head(key).orElseThrow(() -> new AssertionError("HEAD found nothing at " + key));
                assertThat(head.bytes()).as(entry.getKey()).isEqualTo(content.length);
                assertThat(head.sha256()).as(entry.getKey()).isEqualTo(contentSha);
                byte[] got = raw.getObject(b -> b.bucket(config.bucket()).key(key), AsyncResponseTransformer.toBytes())
                        .join().asByteArray();
                assertThat(got).as(entry.getKey()).isEqualTo(content);
                assertThat(store.readAndHash(key)).as(entry.getKey()).isEqualTo(new ReadResult(content.length, contentSha));
                String parent = key.substring(0, key.lastIndexOf('/') + 1);
                assertThat(store.list(parent)).as(entry.getKey()).contains(key);
                List<S3Object> listed = raw.listObjectsV2(b -> b.bucket(config.bucket()).prefix(key)).join().contents();
                assertThat(listed).as(entry.getKey()).hasSize(1);
                assertThat(listed.get(0).key().getBytes(StandardCharsets.UTF_8)).as(entry.getKey())
                        .isEqualTo(key.getBytes(StandardCharsets.UTF_8));
                assertThat(listed.get(0).size()).as(entry.getKey()).isEqualTo(content.length);
            }
        }
    }
}
