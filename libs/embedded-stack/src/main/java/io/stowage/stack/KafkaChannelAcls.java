package io.stowage.stack;

import io.stowage.events.Topics;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Derives the Kafka ACL rules a service needs from its channel configuration (its {@code application.properties}), so
 * that the table in {@code compose/kafka/acls.txt} can be checked against what the services really do. Consumes the
 * properties of one service (profile keys such as {@code %test.} are ignored), produces {@link KafkaAclTable.Rule}s:
 * <ul>
 *   <li>each {@code mp.messaging.outgoing.<channel>} of the {@code smallrye-kafka} connector: WRITE on its
 *       {@code topic} (the channel name when none is set, SmallRye's default);</li>
 *   <li>each {@code mp.messaging.incoming.<channel>}: READ on its {@code topic} or every one of its {@code topics},
 *       READ on its consumer group ({@code group.id}, required; one holding a {@code ${…}} expression, a group per
 *       instance, gives READ on the groups PREFIXED by the text before the expression), and, with {@code failure-strategy=dead-letter-queue},
 *       WRITE on its {@code dead-letter-queue.topic} (required);</li>
 *   <li>{@code stowage.kafka.routed.<channel>=t1,t2,...}: the topics a channel's records name one by one (the service's
 *       code routes each record to its event's topic, or a config source sets the list): WRITE (outgoing) or READ
 *       (incoming, replacing the configured topic) on each. {@code *} stands for every topic, {@code *.dlq} for the
 *       dead-letter topic of every topic of {@link Topics#ALL}.</li>
 *   <li>{@code stowage.kafka.assigned.<client>=t1,t2,...}: the topics a service's own consumer reads by partition
 *       assignment, without a consumer group (e.g. the gatekeeper reading its decisions back): READ on each, no group.</li>
 *   <li>{@code stowage.kafka.lease.<service>=<group>}: the service's cluster lease (its periodic jobs run on one
 *       instance): READ on {@link Topics#LEASE} and on that group.</li>
 * </ul>
 * A literal rule that a {@code *} rule of the same principal and operation covers is dropped; DESCRIBE is never derived,
 * since Kafka's READ and WRITE imply it. A pattern subscription ({@code pattern=true}) is refused: its ACL cannot be
 * derived.
 */
public final class KafkaChannelAcls {
    /** The key prefix of a routed-topics declaration; the channel name follows. */
    public static final String ROUTED = "stowage.kafka.routed.";
    /** The key prefix of a group-less assigned reader's topics; a client name follows. */
    public static final String ASSIGNED = "stowage.kafka.assigned.";
    /** The key prefix of a service's cluster-lease group (as {@code io.stowage.messaging.ClusterLease}); the service follows. */
    public static final String LEASE = Topics.LEASE_GROUP_KEY;
    private static final Pattern CONNECTOR = Pattern.compile("mp\\.messaging\\.(incoming|outgoing)\\.([^.]+)\\.connector");
    private static final String ANY = "*";

    private KafkaChannelAcls() {
    }

    /**
     * @param principal the service's Kafka user, e.g. {@code uploader}
     * @param file      its {@code src/main/resources/application.properties}
     * @return the rules, sorted (see {@link #derive(String, Properties)})
     * @throws IOException when the file cannot be read
     */
    public static List<KafkaAclTable.Rule> derive(String principal, Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        }
        return derive(principal, properties);
    }

    /**
     * @return the rules {@code principal} needs for the channels of {@code properties}, without duplicates, sorted by
     *         resource type, name and operation
     * @throws IllegalArgumentException naming the channel when an incoming channel has no {@code group.id}, a
     *                                  dead-letter channel no {@code dead-letter-queue.topic}, or a pattern subscription
     */
    public static List<KafkaAclTable.Rule> derive(String principal, Properties properties) {
        Set<KafkaAclTable.Rule> rules = new LinkedHashSet<>();
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (key.startsWith(LEASE)) {
                String group = properties.getProperty(key).strip();
                if (group.isEmpty()) {
                    throw new IllegalArgumentException(key + " is empty: its group ACL cannot be derived");
                }
                rules.add(topic(principal, AclOperation.READ, Topics.LEASE));
                rules.add(groupRule(principal, key, group));
                continue;
            }
            if (key.startsWith(ASSIGNED)) {
                split(properties.getProperty(key)).forEach(t -> rules.add(topic(principal, AclOperation.READ, t)));
                continue;
            }
            Matcher m = CONNECTOR.matcher(key);
            if (!m.matches() || !"smallrye-kafka".equals(properties.getProperty(key).strip())) {
                continue;
            }
            String prefix = "mp.messaging." + m.group(1) + "." + m.group(2) + ".";
            if (m.group(1).equals("outgoing")) {
                outgoing(principal, m.group(2), prefix, properties, rules);
            } else {
                incoming(principal, m.group(2), prefix, properties, rules);
            }
        }
        return normalise(rules);
    }

    private static void outgoing(String principal, String channel, String prefix, Properties p, Set<KafkaAclTable.Rule> rules) {
        rules.add(topic(principal, AclOperation.WRITE, p.getProperty(prefix + "topic", channel).strip()));
        routed(channel, p).forEach(t -> rules.add(topic(principal, AclOperation.WRITE, t)));
    }

    private static void incoming(String principal, String channel, String prefix, Properties p, Set<KafkaAclTable.Rule> rules) {
        if (Boolean.parseBoolean(p.getProperty(prefix + "pattern", "false"))) {
            throw new IllegalArgumentException("incoming channel " + channel + " subscribes by pattern: its ACL cannot be derived");
        }
        List<String> topics = routed(channel, p);
        if (topics.isEmpty()) {
            topics = p.containsKey(prefix + "topics") ? split(p.getProperty(prefix + "topics"))
                    : List.of(p.getProperty(prefix + "topic", channel).strip());
        }
        topics.forEach(t -> rules.add(topic(principal, AclOperation.READ, t)));
        String group = p.getProperty(prefix + "group.id");
        if (group == null || group.isBlank()) {
            throw new IllegalArgumentException("incoming channel " + channel + " has no group.id: its group ACL cannot be derived");
        }
        rules.add(groupRule(principal, "incoming channel " + channel, group.strip()));
        if ("dead-letter-queue".equals(p.getProperty(prefix + "failure-strategy", "").strip())) {
            String dlq = p.getProperty(prefix + "dead-letter-queue.topic");
            if (dlq == null || dlq.isBlank()) {
                throw new IllegalArgumentException("incoming channel " + channel + " dead-letters without dead-letter-queue.topic");
            }
            rules.add(topic(principal, AclOperation.WRITE, dlq.strip()));
        }
    }

    /**
     * @return READ on {@code group}; a group whose name holds a configuration expression ({@code stowage-x-${instance}},
     *         one group per instance) gives READ on the groups PREFIXED by the part before the first {@code ${}
     * @throws IllegalArgumentException when the expression starts the name (no prefix to allow)
     * @param owner what declared the group, for the error: {@code incoming channel <name>} or the lease key
     */
    private static KafkaAclTable.Rule groupRule(String principal, String owner, String group) {
        int expression = group.indexOf("${");
        if (expression < 0) {
            return new KafkaAclTable.Rule(principal, AclOperation.READ, ResourceType.GROUP, group, PatternType.LITERAL);
        }
        if (expression == 0) {
            throw new IllegalArgumentException(owner + " has a group.id that starts with an "
                    + "expression: its group ACL cannot be derived");
        }
        return new KafkaAclTable.Rule(principal, AclOperation.READ, ResourceType.GROUP, group.substring(0, expression),
                PatternType.PREFIXED);
    }

    /** @return the declared routed topics of {@code channel}, {@code *.dlq} expanded; empty when none is declared */
    static List<String> routed(String channel, Properties p) {
        List<String> topics = new ArrayList<>();
        for (String t : split(p.getProperty(ROUTED + channel, ""))) {
            if (t.equals("*.dlq")) {
                Topics.ALL.forEach(topic -> topics.add(Topics.dlq(topic)));
            } else {
                topics.add(t);
            }
        }
        return topics;
    }

    private static List<String> split(String list) {
        return Arrays.stream(list.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    private static KafkaAclTable.Rule topic(String principal, AclOperation operation, String name) {
        return new KafkaAclTable.Rule(principal, operation, ResourceType.TOPIC, name, PatternType.LITERAL);
    }

    /** Drops literal topic rules covered by a {@code *} rule of the same principal and operation, then sorts. */
    static List<KafkaAclTable.Rule> normalise(Collection<KafkaAclTable.Rule> rules) {
        Set<String> wildcards = new TreeSet<>();
        rules.stream().filter(r -> r.resourceType() == ResourceType.TOPIC && r.name().equals(ANY))
                .forEach(r -> wildcards.add(r.principal() + " " + r.operation()));
        return rules.stream().distinct()
                .filter(r -> r.resourceType() != ResourceType.TOPIC || r.name().equals(ANY)
                        || !wildcards.contains(r.principal() + " " + r.operation()))
                .sorted(ORDER).toList();
    }

    /** Principal, resource type, name, operation, pattern: the order {@link #derive} returns. */
    public static final Comparator<KafkaAclTable.Rule> ORDER = Comparator.comparing(KafkaAclTable.Rule::principal)
            .thenComparing(KafkaAclTable.Rule::resourceType).thenComparing(KafkaAclTable.Rule::name)
            .thenComparing(KafkaAclTable.Rule::operation).thenComparing(KafkaAclTable.Rule::pattern);
}
