package io.stowage.gatekeeper.messaging;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.GateSignature;
import io.stowage.events.Topics;
import io.stowage.gatekeeper.GatekeeperConfig;
import io.stowage.gatekeeper.domain.DecisionJournal;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the gatekeeper's own decisions back: a Kafka consumer without a consumer group, assigned every partition of
 * {@code gate.passed} and {@code gate.denied}, reads them from the beginning on its own thread and records each
 * record whose {@link CloudEventHeaders#SIGNATURE} verifies under the gate's key in the {@link DecisionJournal}
 * (unsigned or forged records are skipped: they can never stand for a decision). After each pass it reports the time
 * it took the end offsets it has read up to. {@link #lookup} waits, up to {@code stowage.gatekeeper.journal-wait},
 * for a pass that began after the question, and asks for one at once: a pass starts when a lookup asks for it, and
 * otherwise {@link #IDLE_PASS} after the previous one ended, so a lookup waits for at most the pass under way and one
 * more (a few milliseconds each when nothing new was written), not for a poll timeout. Needs READ on the two topics (declared as
 * {@code stowage.kafka.assigned.decision-journal}, from which the ACL table is derived); connects with
 * {@code kafka.bootstrap.servers} and, when set, the SCRAM login ({@code kafka.security.protocol},
 * {@code kafka.sasl.mechanism}, {@code kafka.sasl.jaas.config}) the channels use.
 */
@ApplicationScoped
public class DecisionTopicReader {
    private static final Logger LOG = Logger.getLogger(DecisionTopicReader.class);
    private static final List<String> TOPICS = List.of(Topics.GATE_PASSED, Topics.GATE_DENIED);
    /** How long the reader rests between two passes when no lookup asks for one: 1 s. */
    static final Duration IDLE_PASS = Duration.ofSeconds(1);

    private final DecisionJournal journal = new DecisionJournal();
    private final GatekeeperConfig config;
    private final GateSignature signature;
    private final Map<String, Object> settings = new HashMap<>();
    private final Object passWanted = new Object();
    private boolean asked;
    private volatile boolean running = true;
    private Thread thread;

    DecisionTopicReader(GatekeeperConfig config, GateSignature signature,
                        @ConfigProperty(name = "kafka.bootstrap.servers") String bootstrapServers,
                        @ConfigProperty(name = "kafka.security.protocol") Optional<String> protocol,
                        @ConfigProperty(name = "kafka.sasl.mechanism") Optional<String> mechanism,
                        @ConfigProperty(name = "kafka.sasl.jaas.config") Optional<String> jaas) {
        this.config = config;
        this.signature = signature;
        settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        protocol.ifPresent(v -> settings.put("security.protocol", v));
        mechanism.ifPresent(v -> settings.put("sasl.mechanism", v));
        jaas.ifPresent(v -> settings.put("sasl.jaas.config", v));
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, "stowage-gatekeeper-decision-journal");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    }

    void start(@Observes StartupEvent start) {
        thread = new Thread(this::run, "gate-decision-journal");
        thread.setDaemon(true);
        thread.start();
    }

    void stop(@Observes ShutdownEvent stop) {
        running = false;
        askForPass();
    }

    /**
     * @param decisionId {@link io.stowage.gatekeeper.domain.GateAnswer#decisionId} of the request in hand
     * @return the first authentic decision with that id on the decision topics, or empty when none was sent
     * @throws IllegalStateException when the topics could not be read up to their ends within
     *                               {@code stowage.gatekeeper.journal-wait}: whether the request was decided is unknown
     */
    public Optional<DecisionJournal.Entry> lookup(String decisionId) {
        long askedAt = System.nanoTime();
        long deadline = askedAt + config.journalWait().toNanos();
        while (true) {
            askForPass();
            DecisionJournal.Lookup answer = journal.lookup(decisionId, askedAt);
            if (answer.status() != DecisionJournal.Lookup.Status.UNKNOWN) {
                return Optional.ofNullable(answer.entry());
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("gate.passed and gate.denied not read up to their ends within "
                        + config.journalWait().toSeconds() + " s: cannot tell whether decision " + decisionId
                        + " was sent");
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while reading the decision journal", e);
            }
        }
    }

    private void run() {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(settings)) {
            Set<TopicPartition> assigned = new HashSet<>();
            while (running) {
                try {
                    pass(consumer, assigned);
                } catch (RuntimeException e) {
                    LOG.warnf("decision journal: cannot read %s: %s; trying again", TOPICS, e.toString());
                    pause();
                }
                awaitPassWanted();
            }
        }
    }

    // one pass: take the ends, read up to them, then report the time the ends were taken
    private void pass(KafkaConsumer<String, byte[]> consumer, Set<TopicPartition> assigned) {
        long endsTakenAt = System.nanoTime();
        Set<TopicPartition> partitions = partitions(consumer);
        if (!partitions.equals(assigned)) {
            Set<TopicPartition> added = new HashSet<>(partitions);
            added.removeAll(assigned);
            consumer.assign(partitions);
            consumer.seekToBeginning(added);
            assigned.clear();
            assigned.addAll(partitions);
        }
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(10));
        while (running && ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
            consumer.poll(Duration.ofMillis(100)).forEach(this::record);
        }
        journal.caughtUp(endsTakenAt);
    }

    private void askForPass() {
        synchronized (passWanted) {
            asked = true;
            passWanted.notifyAll();
        }
    }

    // rests until a lookup asks for a pass, at most IDLE_PASS
    private void awaitPassWanted() {
        long until = System.nanoTime() + IDLE_PASS.toNanos();
        synchronized (passWanted) {
            try {
                long left;
                while (!asked && running && (left = until - System.nanoTime()) > 0) {
                    passWanted.wait(Math.max(1, left / 1_000_000));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
            }
            asked = false;
        }
    }

    private static Set<TopicPartition> partitions(KafkaConsumer<String, byte[]> consumer) {
        Set<TopicPartition> partitions = new HashSet<>();
        for (String topic : TOPICS) {
            consumer.partitionsFor(topic, Duration.ofSeconds(10))
                    .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        }
        return partitions;
    }

    private void record(ConsumerRecord<String, byte[]> record) {
        String id = header(record, CloudEventHeaders.ID);
        String mac = header(record, CloudEventHeaders.SIGNATURE);
        if (id == null || mac == null || record.value() == null || !signature.verifies(record.value(), mac)) {
            LOG.warnf("decision journal: %s record at %d/%d (event %s) is not signed by the gate: not a decision",
                    record.topic(), record.partition(), record.offset(), id);
            return;
        }
        journal.record(new DecisionJournal.Entry(id, record.topic(), record.partition(), record.offset()));
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static void pause() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
