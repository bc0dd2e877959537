package io.stowage.ledger.messaging;

import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaConnectorIncomingConfiguration;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import io.smallrye.reactive.messaging.kafka.commit.KafkaCommitHandler;
import io.smallrye.reactive.messaging.kafka.commit.KafkaThrottledLatestProcessedCommit;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Commit strategy {@value #NAME}: the connector's throttled strategy (offsets of acked records, every
 * {@code auto.commit.interval.ms}), with every commit it makes checked on the consumer's polling thread just before
 * it is sent: a partition is committed only while it is assigned to this consumer and only to an offset above the
 * group's committed offset for it ({@link #forward}).
 * <p>
 * The throttled strategy alone can move a committed offset backwards: its periodic commit is computed on the event
 * loop and queued for the polling thread; when a rebalance runs in the poll ahead of it, the revocation commits the
 * newer offset first and the queued, older one lands after it (seen in a rebalance test: 2400, then 1750). The
 * ledger's committed offsets are what the gate's ledger-behind check reads, and what a new owner of the partition
 * starts from: a backward move re-reads events (stored once by event id) and holds releases back, and a commit for
 * a partition this consumer no longer owns could overwrite its new owner's progress.
 * <p>
 * Checking and committing both run on the polling thread, as every commit and rebalance callback of this consumer
 * does, so no other commit of this process can come between them.
 */
@ApplicationScoped
@Identifier(ForwardOnlyCommit.NAME)
public class ForwardOnlyCommit implements KafkaCommitHandler.Factory {
    /** The value of a channel's {@code commit-strategy} that selects this strategy. */
    public static final String NAME = "forward-only-throttled";
    private static final Logger LOG = Logger.getLogger(ForwardOnlyCommit.class);

    private final KafkaThrottledLatestProcessedCommit.Factory throttled = new KafkaThrottledLatestProcessedCommit.Factory();

    @Override
    public KafkaCommitHandler create(KafkaConnectorIncomingConfiguration config, Vertx vertx, KafkaConsumer<?, ?> consumer,
                                     BiConsumer<Throwable, Boolean> reportFailure) {
        return throttled.create(config, vertx, new Checked<>(consumer), reportFailure);
    }

    /**
     * The part of {@code wanted} that may be committed.
     *
     * @param wanted    offsets to commit (the next offset to read, per partition)
     * @param assigned  the partitions assigned to this consumer now
     * @param committed the group's committed offsets now, per partition ({@code null} or absent: none yet)
     * @return the entries of {@code wanted} whose partition is assigned and whose offset is above the committed one
     */
    public static Map<TopicPartition, OffsetAndMetadata> forward(Map<TopicPartition, OffsetAndMetadata> wanted,
                                                                 Set<TopicPartition> assigned,
                                                                 Map<TopicPartition, OffsetAndMetadata> committed) {
        Map<TopicPartition, OffsetAndMetadata> forward = new HashMap<>();
        wanted.forEach((partition, offset) -> {
            OffsetAndMetadata now = committed.get(partition);
            if (assigned.contains(partition) && (now == null || offset.offset() > now.offset())) {
                forward.put(partition, offset);
            }
        });
        return forward;
    }

    /** Commits only {@link #forward} offsets, on the polling thread; {@link #unwrap()}'s commitSync does the same. */
    static Map<TopicPartition, OffsetAndMetadata> checked(Consumer<?, ?> consumer, Map<TopicPartition, OffsetAndMetadata> wanted) {
        Map<TopicPartition, OffsetAndMetadata> forward = forward(wanted, consumer.assignment(), consumer.committed(wanted.keySet()));
        if (forward.size() < wanted.size()) {
            Map<TopicPartition, OffsetAndMetadata> dropped = new HashMap<>(wanted);
            dropped.keySet().removeAll(forward.keySet());
            LOG.debugf("not committing %s: not assigned, or not above the committed offset", dropped);
        }
        return forward;
    }

    /** The connector's consumer, with every commit passed through {@link #checked}. */
    private static final class Checked<K, V> implements KafkaConsumer<K, V> {
        private final KafkaConsumer<K, V> delegate;

        Checked(KafkaConsumer<K, V> delegate) {
            this.delegate = delegate;
        }

        @Override
        public Uni<Void> commit(Map<TopicPartition, OffsetAndMetadata> map) {
            return delegate.runOnPollingThread((Consumer<K, V> c) -> {
                Map<TopicPartition, OffsetAndMetadata> forward = checked(c, map);
                if (!forward.isEmpty()) {
                    c.commitSync(forward);
                }
            });
        }

        @Override
        public Uni<Void> commitAsync(Map<TopicPartition, OffsetAndMetadata> map) {
            return commit(map);
        }

        @Override
        @SuppressWarnings("unchecked")
        public Consumer<K, V> unwrap() {
            Consumer<K, V> raw = delegate.unwrap();
            return (Consumer<K, V>) Proxy.newProxyInstance(Consumer.class.getClassLoader(), new Class<?>[]{Consumer.class},
                    (proxy, method, args) -> {
                        try {
                            if (method.getName().equals("commitSync") && args != null && args.length >= 1
                                    && args[0] instanceof Map<?, ?> wanted) {
                                Map<TopicPartition, OffsetAndMetadata> forward =
                                        checked(raw, (Map<TopicPartition, OffsetAndMetadata>) wanted);
                                if (forward.isEmpty()) {
                                    return null;
                                }
                                Object[] narrowed = args.clone();
                                narrowed[0] = forward;
                                return method.invoke(raw, narrowed);
                            }
                            return method.invoke(raw, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        @Override
        public Map<String, ?> configuration() {
            return delegate.configuration();
        }

        @Override
        public <R> Uni<R> runOnPollingThread(Function<Consumer<K, V>, R> action) {
            return delegate.runOnPollingThread(action);
        }

        @Override
        public Uni<Void> runOnPollingThread(java.util.function.Consumer<Consumer<K, V>> action) {
            return delegate.runOnPollingThread(action);
        }

        @Override
        public Uni<Set<TopicPartition>> pause() {
            return delegate.pause();
        }

        @Override
        public Uni<Set<TopicPartition>> paused() {
            return delegate.paused();
        }

        @Override
        public Uni<Map<TopicPartition, OffsetAndMetadata>> committed(TopicPartition... tps) {
            return delegate.committed(tps);
        }

        @Override
        public Uni<Void> resume() {
            return delegate.resume();
        }

        @Override
        public Uni<Map<TopicPartition, Long>> getPositions() {
            return delegate.getPositions();
        }

        @Override
        public Uni<Set<TopicPartition>> getAssignments() {
            return delegate.getAssignments();
        }

        @Override
        public Uni<Void> seek(TopicPartition partition, long offset) {
            return delegate.seek(partition, offset);
        }

        @Override
        public Uni<Void> seek(TopicPartition partition, OffsetAndMetadata offsetAndMetadata) {
            return delegate.seek(partition, offsetAndMetadata);
        }

        @Override
        public Uni<Void> seekToBeginning(Collection<TopicPartition> partitions) {
            return delegate.seekToBeginning(partitions);
        }

        @Override
        public Uni<Void> seekToEnd(Collection<TopicPartition> partitions) {
            return delegate.seekToEnd(partitions);
        }

        @Override
        public Uni<ConsumerGroupMetadata> consumerGroupMetadata() {
            return delegate.consumerGroupMetadata();
        }

        @Override
        public Uni<Void> resetToLastCommittedPositions() {
            return delegate.resetToLastCommittedPositions();
        }

        @Override
        public Uni<Map<String, List<PartitionInfo>>> lisTopics() {
            return delegate.lisTopics();
        }

        @Override
        public Uni<Map<String, List<PartitionInfo>>> lisTopics(Duration timeout) {
            return delegate.lisTopics(timeout);
        }

        @Override
        public Uni<List<PartitionInfo>> partitionsFor(String topic) {
            return delegate.partitionsFor(topic);
        }
    }
}
