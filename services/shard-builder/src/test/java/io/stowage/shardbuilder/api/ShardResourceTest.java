package io.stowage.shardbuilder.api;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.DatasetSealed;
import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;
import io.stowage.events.ShardBuilt;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.events.manifest.DatasetManifest;
import io.stowage.shardformat.write.DatasetSharder;
import io.stowage.shardformat.write.SealedDataset;
import io.stowage.shardformat.write.ShardRequest;
import io.stowage.shardformat.write.ShardWriter;
import io.stowage.stack.StowageStackResource;
import io.stowage.shardbuilder.ShardBuilderConfig;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class ShardResourceTest {
    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    ShardBuilderConfig config;

    @TempDir
    Path tmp;

    private Path dataset() throws IOException {
        Path dir = Files.createTempDirectory(tmp, "data");
        Random random = new Random(42);
        for (int i = 0; i < 5; i++) {
            byte[] content = new byte[30_000 + i * 1_000];
            random.nextBytes(content);
            Files.createDirectories(dir.resolve("clips"));
            Files.write(dir.resolve("clips/clip-" + i + ".wav"), content);
        }
        Files.writeString(dir.resolve("README.txt"), "five clips\n");
        return dir;
    }

    private static Map<String, Object> body(Path dir, String revision, Path staging) {
        Map<String, Object> body = new HashMap<>();
        body.put("dir", dir.toString());
        body.put("dataset", "speech");
        body.put("revision", revision);
        body.put("license", "CC-BY-SA-3.0");
        body.put("source", "test fixture");
        body.put("targetShardBytes", 70_000);
        body.put("stagingDir", staging.toString());
        body.put("allowSmallShards", true);
        return body;
    }

    @Test
    void shardsADirectoryAndPublishesAcknowledgedEvents() throws IOException {
        Path dir = dataset();
        Path staging = Files.createTempDirectory(tmp, "staging");
        String revision = "r-" + UUID.randomUUID();
        String assetId = "dataset/speech/" + revision;

        ShardResponse response = given().contentType(ContentType.JSON).body(body(dir, revision, staging))
                .when().post("/api/datasets/shard")
                .then().statusCode(200).extract().as(ShardResponse.class);

        // 11 B + 30..34 kB files, 70 kB target: [README, clip-0, clip-1], [clip-2, clip-3], [clip-4]
        assertThat(response.shards()).isEqualTo(3);
        assertThat(response.members()).isEqualTo(6);
        assertThat(response.memberBytes()).isEqualTo(11 + 30_000 + 31_000 + 32_000 + 33_000 + 34_000);
        assertThat(response.assetId()).isEqualTo(assetId);
        Path manifestPath = staging.resolve("datasets/speech/" + revision + "/manifest.json");
        assertThat(response.manifestPath()).isEqualTo(manifestPath.toString());
        assertThat(response.manifestSha256()).isEqualTo(Sha256.of(manifestPath));
        DatasetManifest manifest = EventCodec.mapper().readValue(manifestPath.toFile(), DatasetManifest.class);
        assertThat(manifest.shards()).extracting(s -> s.sha256()).isEqualTo(response.shardShas());

        List<ConsumerRecord<String, byte[]>> records = consume(assetId, 4);
        List<ShardBuilt> built = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> record : records.subList(0, 3)) {
            assertThat(record.topic()).isEqualTo(Topics.SHARD_BUILT);
            built.add(EventCodec.decode(ShardBuilt.class, record.value()));
            assertHeaders(record, built.get(built.size() - 1));
        }
        ConsumerRecord<String, byte[]> last = records.get(3);
        assertThat(last.topic()).isEqualTo(Topics.DATASET_SEALED);
        DatasetSealed sealed = EventCodec.decode(DatasetSealed.class, last.value());
        assertHeaders(last, sealed);

        assertThat(built).extracting(ShardBuilt::index).containsExactly(0, 1, 2);
        assertThat(built).extracting(ShardBuilt::sha256).isEqualTo(response.shardShas());
        for (ShardBuilt shard : built) {
            assertThat(Sha256.of(Path.of(shard.shardPath()))).isEqualTo(shard.sha256());
            assertThat(Files.size(Path.of(shard.shardPath()))).isEqualTo(shard.bytes());
            assertThat(Sha256.of(Path.of(shard.membersPath()))).isEqualTo(shard.membersSha256());
            assertThat(shard.sourceDir()).isEqualTo(dir.toString());
        }
        assertThat(built.get(0).meta().causationId()).isNull();
        assertThat(built.get(1).meta().causationId()).isEqualTo(built.get(0).meta().eventId());
        assertThat(sealed.meta().causationId()).isEqualTo(built.get(2).meta().eventId());
        assertThat(sealed.shardCount()).isEqualTo(3);
        assertThat(sealed.memberCount()).isEqualTo(6);
        assertThat(sealed.manifestSha256()).isEqualTo(Sha256.of(manifestPath));
        assertThat(sealed.license()).isEqualTo("CC-BY-SA-3.0");
    }

    private static void assertHeaders(ConsumerRecord<String, byte[]> record, StowageEvent event) {
        assertThat(record.key()).isEqualTo(event.assetId());
        Map<String, String> headers = new HashMap<>();
        for (Header header : record.headers()) {
            headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
        }
        assertThat(headers).containsAllEntriesOf(CloudEventHeaders.of(event, "/stowage/shard-builder"));
        assertThat(headers.get(CloudEventHeaders.TYPE)).isEqualTo(Topics.cloudEventType(record.topic()));
        assertThat(headers.get(CloudEventHeaders.CORRELATION_ID)).isEqualTo(event.assetId());
    }

    /** Reads both topics from the start until {@code count} records keyed {@code assetId} arrived, in publish order. */
    private List<ConsumerRecord<String, byte[]>> consume(String assetId, int count) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "shard-resource-test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                     new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(Topics.SHARD_BUILT, Topics.DATASET_SEALED));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                    if (assetId.equals(r.key())) {
                        records.add(r);
                    }
                });
                return records.size() >= count;
            });
        }
        // one key, one partition per topic: offsets give the publish order; dataset.sealed comes last
        records.sort(Comparator.comparing((ConsumerRecord<String, byte[]> r) -> r.topic().equals(Topics.DATASET_SEALED))
                .thenComparingLong(ConsumerRecord::offset));
        assertThat(records).hasSize(count);
        return records;
    }

    /** Building shards writes files, so it needs an operator token; a refused build writes nothing. */
    @Test
    void onlyAnOperatorMayBuildShardsAndARefusedBuildWritesNothing() throws IOException {
        Path dir = dataset();
        Path staging = Files.createTempDirectory(tmp, "staging");
        io.restassured.RestAssured.given().contentType(ContentType.JSON).body(body(dir, "r-anon", staging))
                .post("/api/datasets/shard").then().statusCode(401);
        io.restassured.RestAssured.given().auth().oauth2("not-a-token").contentType(ContentType.JSON)
                .body(body(dir, "r-wrong", staging)).post("/api/datasets/shard").then().statusCode(401);
        io.stowage.auth.TestTokens.givenReader().contentType(ContentType.JSON).body(body(dir, "r-reader", staging))
                .post("/api/datasets/shard").then().statusCode(403);
        try (var files = Files.list(staging)) {
            assertThat(files.toList()).as("nothing staged").isEmpty();
        }
    }

    @Test
    void refusesABadNameWithAOneLineError() throws IOException {
        Path staging = Files.createTempDirectory(tmp, "staging");
        given().contentType(ContentType.JSON).body(body(dataset(), "bad name", staging))
                .when().post("/api/datasets/shard")
                .then().statusCode(400)
                .body("error", equalTo("revision 'bad name' is not a valid name: use only ASCII letters, digits, '.', '_' and '-' (' ' (U+0020) is not allowed)"));
        assertThat(staging).isEmptyDirectory();
    }

    @Test
    void refusesAMissingDirectory() throws IOException {
        Path staging = Files.createTempDirectory(tmp, "staging");
        given().contentType(ContentType.JSON).body(body(Path.of("/nonexistent/dataset"), "r1", staging))
                .when().post("/api/datasets/shard")
                .then().statusCode(400)
                .body("error", equalTo("the dataset directory does not exist: /nonexistent/dataset"));
    }

    @Test
    void refusesASymlinkAndNamesIt() throws IOException {
        Path dir = dataset();
        Files.createSymbolicLink(dir.resolve("clips/link.wav"), dir.resolve("clips/clip-0.wav"));
        Path staging = Files.createTempDirectory(tmp, "staging");
        given().contentType(ContentType.JSON).body(body(dir, "r1", staging))
                .when().post("/api/datasets/shard")
                .then().statusCode(400)
                .body("error", equalTo("only regular files can be sharded; the dataset directory also holds: "
                        + dir.resolve("clips/link.wav") + " (symlink)"));
    }

    @Test
    void refusesJsonThatIsNotJsonWith400() {
        given().contentType(ContentType.JSON).body("{\"dir\": ")
                .when().post("/api/datasets/shard")
                .then().statusCode(400);
    }

    @Test
    void refusesARelativeDirectory() {
        given().contentType(ContentType.JSON).body(Map.of("dir", "data/speech", "dataset", "speech", "revision", "r1"))
                .when().post("/api/datasets/shard")
                .then().statusCode(400)
                .body("error", equalTo("dir must be an absolute path: data/speech"));
    }

    @Test
    void defaultsComeFromConfiguration() {
        assertThat(config.stagingDir()).isEqualTo(System.getProperty("java.io.tmpdir") + "/stowage-staging");
        assertThat(config.targetShardBytes()).isEqualTo(2L * 1024 * 1024 * 1024);
        assertThat(config.sourceDateEpoch()).isEqualTo(
                Long.parseLong(System.getenv().getOrDefault("SOURCE_DATE_EPOCH", "0")));
    }

    @Test
    void answers500WhenTheStagingDirectoryCannotBeWritten() throws IOException {
        Path notADirectory = Files.writeString(tmp.resolve("plain-file"), "x");
        given().contentType(ContentType.JSON).body(body(dataset(), "r1", notADirectory.resolve("staging")))
                .when().post("/api/datasets/shard")
                .then().statusCode(500)
                .body("error", containsString(notADirectory.toString()));
    }

    @Test
    void refusesATargetOutsideOneToFourGibibytesWithoutTheOverride() throws IOException {
        Path staging = Files.createTempDirectory(tmp, "staging");
        Map<String, Object> body = body(dataset(), "r1", staging);
        body.remove("allowSmallShards");
        body.put("targetShardBytes", 262_144);

        given().contentType(ContentType.JSON).body(body)
                .when().post("/api/datasets/shard")
                .then().statusCode(400)
                .body("error", equalTo("targetShardBytes 262144 is outside the production bounds"
                        + " 1073741824..4294967296 bytes (1-4 GiB); send \"allowSmallShards\": true"
                        + " (or set stowage.shard-builder.allow-small-shards=true) for tests and demos"));
        assertThat(staging).isEmptyDirectory();
        assertThat(config.allowSmallShards()).isFalse();
    }

    @Test
    void refusesAWebDatasetKeyCollisionNamingBothFiles() throws IOException {
        Path dir = dataset();
        Files.writeString(dir.resolve("clips/clip-0.WAV"), "same sample as clip-0.wav");
        Path staging = Files.createTempDirectory(tmp, "staging");

        given().contentType(ContentType.JSON).body(body(dir, "r1", staging))
                .when().post("/api/datasets/shard")
                .then().statusCode(400)
                .body("error", equalTo("WebDataset sample key collision, compared case-insensitively:"
                        + " 'clips/clip-0.WAV' and 'clips/clip-0.wav' (key 'clips/clip-0', extension 'wav')"));
        assertThat(staging).isEmptyDirectory();
    }

    @Test
    void aBuildThatFailsAfterItsFirstShardPublishesNoEvent() throws IOException {
        Path dir = dataset();
        String revision = "r-" + UUID.randomUUID();
        // learn shard 1's content address, then block its final name with a directory: shard 0 is
        // written, shard 1's rename fails
        SealedDataset rehearsal = new DatasetSharder(new ShardWriter(config.sourceDateEpoch())).shard(
                new ShardRequest(dir, "speech", revision, null, null, 70_000, Files.createTempDirectory(tmp, "rehearsal")));
        Path staging = Files.createTempDirectory(tmp, "staging");
        Path shards = staging.resolve("datasets/speech/" + revision + "/shards");
        Files.createDirectories(shards.resolve(rehearsal.shards().get(1).shard().sha256() + ".tar.zst/blocker"));

        given().contentType(ContentType.JSON).body(body(dir, revision, staging))
                .when().post("/api/datasets/shard")
                .then().statusCode(500);

        assertThat(shards.resolve(rehearsal.shards().get(0).shard().sha256() + ".tar.zst")).exists();
        assertThat(staging.resolve("datasets/speech/" + revision + "/manifest.json")).doesNotExist();
        // every acknowledged record lies below the end offsets read now: none is keyed by this asset
        assertThat(keysUpToTheEnd()).doesNotContain("dataset/speech/" + revision);

        // the retry, once the blocker is gone, publishes exactly its own 3 shard.built + 1 dataset.sealed
        Files.delete(shards.resolve(rehearsal.shards().get(1).shard().sha256() + ".tar.zst/blocker"));
        Files.delete(shards.resolve(rehearsal.shards().get(1).shard().sha256() + ".tar.zst"));
        given().contentType(ContentType.JSON).body(body(dir, revision, staging))
                .when().post("/api/datasets/shard")
                .then().statusCode(200);
        assertThat(keysUpToTheEnd()).filteredOn(("dataset/speech/" + revision)::equals).hasSize(4);
    }

    /** @return the keys of every record on shard.built and dataset.sealed, from the beginning to the current end offsets */
    private List<String> keysUpToTheEnd() {
        Map<String, Object> settings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<String> keys = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                     new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : List.of(Topics.SHARD_BUILT, Topics.DATASET_SEALED)) {
                consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> keys.add(r.key()));
                return partitions.stream().allMatch(p -> consumer.position(p) >= ends.get(p));
            });
        }
        return keys;
    }
}
