package io.stowage.stack;

import io.stowage.events.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Consumes a just-launched broker and produces the Stowage topics on it: waits until the broker
 * answers, then creates every topic of {@link Topics#ALL} and its dead-letter topic (4 partitions,
 * {@code retention.ms=-1}) and the one-partition lease topic {@link Topics#LEASE}, and waits until each partition has a
 * leader.
 */
final class KafkaTopics {
    static final int PARTITIONS = 4;

    private KafkaTopics() {
    }

    /** @return every topic the stack creates: each audit topic followed by its dead-letter topic, then the lease topic */
    static List<String> names() {
        List<String> names = new ArrayList<>();
        for (String topic : Topics.ALL) {
            names.add(topic);
            names.add(Topics.dlq(topic));
        }
        names.add(Topics.LEASE);
        return names;
    }

    /** The broker being waited for, child JVM or container: whether it still runs, and the end of its log. */
    interface Broker {
        /** @return {@code host:port} to bootstrap from */
        String bootstrapServers();

        /** @throws IOException when the broker has exited; the message carries the end of its log */
        void checkAlive() throws IOException;

        /** @return about the last 40 lines of the broker's log */
        String logTail();
    }

    /** @return the child-JVM broker as a {@link Broker} */
    static Broker of(KafkaBroker broker) {
        return new Broker() {
            public String bootstrapServers() {
                return broker.bootstrapServers();
            }

            public void checkAlive() throws IOException {
                broker.process().checkAlive();
            }

            public String logTail() {
                return broker.process().tail(40);
            }
        };
    }

    /**
     * Creates the topics once the broker answers (existing topics are kept).
     *
     * @param timeoutMillis how long to wait in all, in milliseconds
     * @throws IOException when the broker exits, or does not answer or elect leaders in time
     */
    static void create(Broker broker, long timeoutMillis) throws IOException {
        create(broker, Map.of(), List.of(), null, timeoutMillis);
    }

    /**
     * As {@link #create(Broker, long)}, logged in with {@code login} (empty: no authentication), also creating
     * {@code extra} topics, then, when {@code security} is given, making the broker enforce its users and ACLs.
     *
     * @param login    client settings added to the admin client's (e.g. the super user's SASL settings)
     * @param extra    further topics to create the same way (e.g. the ACL table's other topics)
     * @param security the users and ACLs to enforce, or null for none
     * @throws IOException when the broker exits, does not answer or elect leaders in time, or refuses the ACLs
     */
    static void create(Broker broker, Map<String, ?> login, java.util.Collection<String> extra, KafkaSecurity security,
                       long timeoutMillis) throws IOException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        Map<String, Object> config = new java.util.HashMap<>(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "50", AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000", AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000"));
        config.putAll(login);
        try (Admin admin = Admin.create(config)) {
            awaitBroker(admin, broker, deadline);
            java.util.Set<String> all = new java.util.LinkedHashSet<>(names());
            all.addAll(extra);
            List<NewTopic> topics = all.stream().map(name -> new NewTopic(name, name.equals(Topics.LEASE) ? 1 : PARTITIONS,
                    (short) 1).configs(Map.of("retention.ms", "-1"))).toList();
            admin.createTopics(topics).values().values().forEach(KafkaTopics::ignoreExisting);
            awaitLeaders(admin, broker, deadline);
            if (security != null) {
                ScramKafka.enforce(admin, broker.bootstrapServers(), security, Math.max(1000, deadline - System.currentTimeMillis()));
            }
        } catch (ExecutionException e) {
            throw new IOException("the broker refused the Kafka users or ACLs: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while creating topics", e);
        }
    }

    private static void awaitBroker(Admin admin, Broker broker, long deadline) throws IOException, InterruptedException {
        while (true) {
            broker.checkAlive();
            try {
                if (!admin.describeCluster().nodes().get(500, TimeUnit.MILLISECONDS).isEmpty()) {
                    return;
                }
            } catch (ExecutionException | TimeoutException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("Kafka broker did not answer on " + broker.bootstrapServers()
                            + "; last lines of its log:\n" + broker.logTail(), e);
                }
            }
        }
    }

    private static void ignoreExisting(org.apache.kafka.common.KafkaFuture<Void> created) {
        try {
            created.get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("topic creation failed: " + e.getCause().getMessage(), e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }

    private static void awaitLeaders(Admin admin, Broker broker, long deadline) throws IOException, InterruptedException {
        while (true) {
            broker.checkAlive();
            try {
                Map<String, TopicDescription> topics = admin.describeTopics(names()).allTopicNames().get(5, TimeUnit.SECONDS);
                boolean led = topics.values().stream().flatMap(t -> t.partitions().stream())
                        .allMatch(p -> p.leader() != null && !p.leader().isEmpty());
                if (led && topics.size() == names().size()) {
                    return;
                }
            } catch (ExecutionException | TimeoutException e) {
                // metadata not yet propagated: ask again
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IOException("Kafka topics got no partition leaders in time; broker log:\n" + broker.logTail());
            }
            Thread.sleep(50);
        }
    }
}
