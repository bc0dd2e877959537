package io.stowage.cli.checkpoint;

import io.stowage.cli.client.EventPublisher;
import io.stowage.cli.output.Progress;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.EventCodec;
import io.stowage.events.Topics;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@link StepWatcher} publishing to the real Kafka of the embedded stack. */
@ExtendWith(StowageStackExtension.class)
class StepWatcherKafkaTest {
    private static final String PROVENANCE = "{\"codeCommit\":\"c0ffee\",\"configSha256\":\"" + "a".repeat(64)
            + "\",\"dataManifestSha256\":\"" + "b".repeat(64) + "\"}";

    @TempDir
    Path tmp;
    private final String run = "run-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void publishesEachCompleteNewStepOnceInStepOrderAndRemembersIt(StackEndpoints stack) throws Exception {
        Path root = Files.createDirectories(tmp.resolve("ckpt"));
        step(root, "step-000000000002", false);
        step(root, "step-000000000001", true);
        Path inProgress = step(root, ".tmp-step-000000000003", true);
        Path stateFile = WatchState.fileFor(tmp.resolve("home/state"), "exp", run);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Progress progress = new Progress(new PrintStream(err, true, StandardCharsets.UTF_8), false);
        CheckpointPublisher publisher = new CheckpointPublisher(tmp.resolve("staging"), Clock.systemUTC());

        try (EventPublisher events = new EventPublisher(stack.kafkaBootstrapServers())) {
            StepWatcher watcher = new StepWatcher(root, "exp", run, 2L, WatchState.load(stateFile, "exp", run), publisher, events, progress);
            assertThat(watcher.scanOnce(true)).isTrue();
            assertThat(WatchState.load(stateFile, "exp", run).published()).containsExactly(1L, 2L);
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("warning: checkpoint/exp/" + run + "/000000000002 lacks code commit")
                    .doesNotContain(run + "/000000000001 lacks");

            Files.move(inProgress, root.resolve("step-000000000003"));
            assertThat(watcher.scanOnce(true)).isTrue();
            StepWatcher restarted = new StepWatcher(root, "exp", run, 2L, WatchState.load(stateFile, "exp", run), publisher, events, progress);
            assertThat(restarted.scanOnce(true)).isTrue();
        }

        List<CheckpointPublished> published = awaitEvents(stack, 3);
        assertThat(published).extracting(CheckpointPublished::step).containsExactly(1L, 2L, 3L);
        assertThat(published).extracting(CheckpointPublished::key).containsExactly(false, true, false);
        assertThat(published).extracting(CheckpointPublished::stepDir).containsExactly(root.resolve("step-000000000001").toString(),
                root.resolve("step-000000000002").toString(), root.resolve("step-000000000003").toString());
        assertThat(published).extracting(CheckpointPublished::fileCount).containsExactly(2, 1, 2);
        assertThat(published.get(0).provenance().codeCommit()).isEqualTo("c0ffee");
        assertThat(WatchState.load(stateFile, "exp", run).published()).containsExactly(1L, 2L, 3L);
    }

    @Test
    void aStepThatCannotBePublishedIsWarnedAboutOnceAndNeitherSentNorRecorded(StackEndpoints stack) throws Exception {
        Path root = Files.createDirectories(tmp.resolve("ckpt"));
        Path bad = step(root, "step-000000000004", true);
        Files.createSymbolicLink(bad.resolve("link.pt"), bad.resolve("model.pt"));
        Path stateFile = WatchState.fileFor(tmp.resolve("home/state"), "exp", run);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Progress progress = new Progress(new PrintStream(err, true, StandardCharsets.UTF_8), false);

        try (EventPublisher events = new EventPublisher(stack.kafkaBootstrapServers())) {
            StepWatcher watcher = new StepWatcher(root, "exp", run, null, WatchState.load(stateFile, "exp", run),
                    new CheckpointPublisher(tmp.resolve("staging"), Clock.systemUTC()), events, progress);
            assertThat(watcher.scanOnce(true)).isFalse();
            assertThat(watcher.scanOnce(true)).isFalse();
        }

        assertThat(err.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("warning: not publishing " + bad)))
                .singleElement().asString().contains("symlink");
        assertThat(stateFile).doesNotExist();
        assertThat(awaitEvents(stack, 0)).isEmpty();
    }

    private static Path step(Path root, String name, boolean provenance) throws Exception {
        Path dir = Files.createDirectories(root.resolve(name));
        Files.writeString(dir.resolve("model.pt"), "weights of " + name);
        if (provenance) {
            Files.writeString(dir.resolve(CheckpointPublisher.PROVENANCE_FILE), PROVENANCE);
        }
        return dir;
    }

    /** Every checkpoint.published of this run, in step order, once {@code expected} of them are there (none more after). */
    private List<CheckpointPublished> awaitEvents(StackEndpoints stack, int expected) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers());
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.CHECKPOINT_PUBLISHED).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            List<CheckpointPublished> mine = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.key().startsWith("checkpoint/exp/" + run + "/")) {
                        mine.add(EventCodec.decode(CheckpointPublished.class, record.value()));
                    }
                }
                return endReached(consumer, partitions) && mine.size() >= expected;
            });
            mine.sort((a, b) -> Long.compare(a.step(), b.step()));
            assertThat(mine).hasSize(expected);
            return mine;
        }
    }

    private static boolean endReached(KafkaConsumer<String, byte[]> consumer, List<TopicPartition> partitions) {
        return consumer.endOffsets(partitions).entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }
}
