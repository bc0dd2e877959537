package io.stowage.messaging;

import io.stowage.events.Topics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which instance of a service runs its periodic jobs (the rolling scrub, the sweep of abandoned multipart uploads): a
 * cluster lease held through Kafka's group protocol. Every instance of the service joins one consumer group on the
 * one-partition topic {@link Topics#LEASE}; the instance the group coordinator assigns partition 0 holds the lease,
 * and when it stops, is killed or stops heartbeating, the coordinator gives it to another instance after the session
 * timeout ({@link #SESSION_TIMEOUT}, 10 s). No record is read or written and no offset is committed.
 *
 * <p>{@link #held()} is true while partition 0 is assigned to this instance and its last heartbeat to a known
 * coordinator was sent less than {@link #HEARTBEAT_FRESHNESS} (4 s) ago: an instance cut off from the broker stops
 * counting itself the holder before the coordinator (after 10 s) hands the lease on. A job already running when the lease moves runs to
 * its end, so two instances can overlap for the length of one run: the lease avoids duplicated work, it is not a
 * lock, and every job it guards must be safe to run twice.
 *
 * <p>When the lease cannot work, the jobs must not stop on every instance (a scrub that never runs is worse than one
 * that runs twice): without a configured group, and while the lease topic does not exist or the broker refuses the
 * group or the topic (a missing ACL), {@link #held()} is true on every instance and a warning says why
 * ("unguarded"; an instance without the lease checks every 30 s that the topic still exists). While the broker is merely unreachable it is false.
 *
 * <p>Configuration (MicroProfile Config): {@code stowage.kafka.lease.<service>=<group id>} (from which the ACL table
 * derives READ on {@link Topics#LEASE} and on the group), and the Kafka connection the channels use:
 * {@code kafka.bootstrap.servers}, and when set {@code kafka.security.protocol}, {@code kafka.sasl.mechanism},
 * {@code kafka.sasl.jaas.config}.
 */
public final class ClusterLease implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ClusterLease.class);
    /** The key prefix of a service's lease group ({@link Topics#LEASE_GROUP_KEY}); the service name follows. */
    public static final String CONFIG_PREFIX = Topics.LEASE_GROUP_KEY;
    /** The coordinator's session timeout for lease members: how long a dead holder keeps the lease. */
    public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);
    /** How often a member heartbeats to the coordinator. */
    public static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(1);
    /** The age of the last heartbeat sent beyond which this instance no longer counts itself the holder. */
    public static final Duration HEARTBEAT_FRESHNESS = Duration.ofSeconds(4);
    private static final TopicPartition PARTITION = new TopicPartition(Topics.LEASE, 0);
    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration RETRY = Duration.ofSeconds(5);
    /** How often an instance without the lease checks that the lease topic still exists. */
    private static final Duration TOPIC_CHECK = Duration.ofSeconds(30);

    /** What the lease knows of itself. */
    public enum State {
        /** Partition 0 is assigned here and the last heartbeat is fresh. */
        HELD,
        /** Another instance holds it, or this one has not joined yet, or the broker is unreachable. */
        NOT_HELD,
        /** The lease cannot work (no group configured, no lease topic, refused by the broker): every instance runs. */
        UNGUARDED
    }

    private final String name;
    private final String group;
    private final Map<String, Object> settings;
    private volatile boolean running = true;
    private volatile boolean assigned;
    private volatile long lastHeartbeatNanos;
    private volatile String unguarded;
    private volatile State logged;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private Thread thread;

    private ClusterLease(String name, String group, Map<String, Object> kafka, String unguarded) {
        this.name = name;
        this.group = group;
        this.settings = new HashMap<>(kafka);
        this.unguarded = unguarded;
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group == null ? "" : group);
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, "stowage-lease-" + name);
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        settings.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        settings.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) SESSION_TIMEOUT.toMillis());
        settings.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) HEARTBEAT_INTERVAL.toMillis());
        settings.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 60_000);
        settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    }

    /**
     * A lease for {@code service}'s periodic jobs, not yet started.
     *
     * @param service the service's name, e.g. {@code verifier}; the group is {@code stowage.kafka.lease.<service>}
     * @return the lease; unguarded when that key is not set
     */
    public static ClusterLease fromConfig(String service, Config config) {
        Optional<String> group = config.getOptionalValue(CONFIG_PREFIX + service, String.class).map(String::strip)
                .filter(s -> !s.isEmpty());
        Map<String, Object> kafka = new HashMap<>();
        kafka.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.getOptionalValue("kafka.bootstrap.servers", String.class)
                .orElse("localhost:9092"));
        config.getOptionalValue("kafka.security.protocol", String.class).ifPresent(v -> kafka.put("security.protocol", v));
        config.getOptionalValue("kafka.sasl.mechanism", String.class).ifPresent(v -> kafka.put("sasl.mechanism", v));
        config.getOptionalValue("kafka.sasl.jaas.config", String.class).ifPresent(v -> kafka.put("sasl.jaas.config", v));
        return of(service, group.orElse(null), kafka);
    }

    /**
     * @param name  what the lease is for (log lines and the Kafka client id)
     * @param group the consumer group every instance shares, or null for an always-unguarded lease
     * @param kafka the connection: bootstrap servers and any login settings
     */
    public static ClusterLease of(String name, String group, Map<String, ?> kafka) {
        return new ClusterLease(name, group, new HashMap<>(kafka), group == null
                ? "no consumer group configured (" + CONFIG_PREFIX + name + ")" : null);
    }

    /** Starts joining the group on a daemon thread of its own; returns at once. A lease without a group does nothing. */
    public synchronized ClusterLease start() {
        if (group == null) {
            LOG.warnf("cluster lease %s: %s; periodic jobs run on every instance", name, unguarded);
            logged = State.UNGUARDED;
            return this;
        }
        thread = new Thread(this::run, "stowage-lease-" + name);
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    /** @return true when this instance is to run the periodic jobs now ({@link State#HELD} or {@link State#UNGUARDED}) */
    public boolean held() {
        return state() != State.NOT_HELD;
    }

    /** @return the lease's state now (see the class comment) */
    public State state() {
        if (unguarded != null) {
            return State.UNGUARDED;
        }
        boolean fresh = System.nanoTime() - lastHeartbeatNanos < HEARTBEAT_FRESHNESS.toNanos();
        return assigned && fresh ? State.HELD : State.NOT_HELD;
    }

    /** @return why the lease is unguarded, or null when it works */
    public String unguardedBecause() {
        return unguarded;
    }

    private void run() {
        while (running) {
            try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(settings)) {
                consumer = c;
                if (!running) {
                    return;
                }
                if (!topicExists(c)) {
                    becomeUnguarded("the lease topic " + Topics.LEASE + " does not exist");
                    sleep(RETRY);
                    continue;
                }
                c.subscribe(List.of(Topics.LEASE), new ConsumerRebalanceListener() {
                    @Override
                    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                        if (partitions.contains(PARTITION)) {
                            assigned = false;
                        }
                    }

                    @Override
                    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    }

                    @Override
                    public void onPartitionsLost(Collection<TopicPartition> partitions) {
                        assigned = false;
                    }
                });
                long checked = System.nanoTime();
                while (running) {
                    c.poll(POLL);
                    if (!assigned && System.nanoTime() - checked > TOPIC_CHECK.toNanos()) {
                        checked = System.nanoTime();
                        if (!topicExists(c)) {
                            becomeUnguarded("the lease topic " + Topics.LEASE + " no longer exists");
                            break;
                        }
                    }
                    if (unguarded != null) {
                        unguarded = null; // polled without a refusal: the lease works (again)
                    }
                    assigned = c.assignment().contains(PARTITION);
                    heartbeatAge(c).ifPresent(age -> lastHeartbeatNanos = System.nanoTime() - age.toNanos());
                    logChange();
                }
            } catch (WakeupException e) {
                return;
            } catch (org.apache.kafka.common.errors.AuthorizationException e) {
                becomeUnguarded("the broker refuses it (" + e.getMessage() + ")");
                sleep(RETRY);
            } catch (KafkaException | IllegalStateException e) {
                assigned = false;
                LOG.warnf("cluster lease %s: %s; joining again in %d s", name, e.getMessage(), RETRY.toSeconds());
                logChange();
                sleep(RETRY);
            } finally {
                consumer = null;
            }
        }
    }

    private static boolean topicExists(KafkaConsumer<byte[], byte[]> c) {
        List<PartitionInfo> partitions = c.partitionsFor(Topics.LEASE, Duration.ofSeconds(30));
        return partitions != null && !partitions.isEmpty();
    }

    /** @return how long ago the client last sent a heartbeat to its coordinator (its coordinator metric), when known */
    private static Optional<Duration> heartbeatAge(KafkaConsumer<byte[], byte[]> c) {
        for (Map.Entry<MetricName, ? extends Metric> m : c.metrics().entrySet()) {
            if (m.getKey().name().equals("last-heartbeat-seconds-ago")
                    && m.getKey().group().equals("consumer-coordinator-metrics")) {
                Object value = m.getValue().metricValue();
                if (value instanceof Number n && n.doubleValue() >= 0 && !Double.isNaN(n.doubleValue())) {
                    return Optional.of(Duration.ofMillis((long) (n.doubleValue() * 1000)));
                }
            }
        }
        return Optional.empty();
    }

    private void becomeUnguarded(String why) {
        assigned = false;
        unguarded = why;
        logChange();
    }

    private void logChange() {
        State now = state();
        if (now == logged) {
            return;
        }
        logged = now;
        switch (now) {
            case HELD -> LOG.infof("cluster lease %s (group %s): held by this instance; it runs the periodic jobs", name,
                    group);
            case NOT_HELD -> LOG.infof("cluster lease %s (group %s): not held by this instance", name, group);
            case UNGUARDED -> LOG.warnf("cluster lease %s (group %s): %s; periodic jobs run on every instance", name,
                    group, unguarded);
        }
    }

    private void sleep(Duration d) {
        long end = System.nanoTime() + d.toNanos();
        while (running && System.nanoTime() - end < 0) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
            }
        }
    }

    /** Leaves the group (the coordinator hands the lease on at once) and stops the thread; idempotent. */
    @Override
    public void close() {
        running = false;
        KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        Thread t = thread;
        if (t != null) {
            try {
                t.join(15_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        assigned = false;
    }
}
