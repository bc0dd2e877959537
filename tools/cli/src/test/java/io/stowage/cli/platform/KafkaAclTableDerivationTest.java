package io.stowage.cli.platform;

import io.stowage.cli.Repo;
import io.stowage.cli.client.EventPublisher;
import io.stowage.events.Topics;
import io.stowage.stack.KafkaAclTable;
import io.stowage.stack.KafkaChannelAcls;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Kafka ACL table that compose and {@code stowage up} load ({@code compose/kafka/acls.txt}) is exactly what each
 * service's channel configuration ({@code services/<name>/src/main/resources/application.properties}) and the CLI's
 * {@link EventPublisher#TOPICS} derive, so that it cannot drift from what the services do: a new channel, topic or
 * consumer group fails here until the table has its line, and a line no channel needs fails too.
 */
class KafkaAclTableDerivationTest {
    private static KafkaAclTable table;
    private static List<KafkaAclTable.Rule> derived;

    @BeforeAll
    static void derive() throws IOException {
        table = KafkaAclTable.read(Repo.root().resolve(KafkaAclTable.FILE));
        derived = new ArrayList<>();
        for (Map.Entry<String, Path> service : services().entrySet()) {
            derived.addAll(KafkaChannelAcls.derive(service.getKey(), service.getValue()));
        }
        for (String topic : new TreeSet<>(EventPublisher.TOPICS)) {
            derived.add(new KafkaAclTable.Rule("operator", AclOperation.WRITE, ResourceType.TOPIC, topic, PatternType.LITERAL));
        }
    }

    /**
     * @return service name (its Kafka user) to its application.properties, for every service of the checkout that has a
     *         Kafka channel (the console has none: it reads only the services' HTTP APIs)
     */
    private static Map<String, Path> services() throws IOException {
        Map<String, Path> services = new TreeMap<>();
        try (Stream<Path> dirs = Files.list(Repo.root().resolve("services"))) {
            dirs.filter(d -> Files.isRegularFile(d.resolve("src/main/resources/application.properties")))
                    .filter(KafkaAclTableDerivationTest::hasChannels)
                    .forEach(d -> services.put(d.getFileName().toString(), d.resolve("src/main/resources/application.properties")));
        }
        return services;
    }

    private static boolean hasChannels(Path service) {
        try {
            return Files.readString(service.resolve("src/main/resources/application.properties")).contains("\nmp.messaging.");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theTableIsExactlyWhatTheChannelsDerive() {
        assertThat(lines(table.rules())).as("compose/kafka/acls.txt against the services' channels")
                .isEqualTo(lines(derived));
        assertThat(table.rules()).doesNotHaveDuplicates();
    }

    @Test
    void everyServiceAndTheCliHaveAUserAndNoOneElse() throws IOException {
        Set<String> expected = new TreeSet<>(services().keySet());
        expected.add("operator");

        assertThat(table.principals()).isEqualTo(expected);
    }

    @Test
    void evidenceAndDecisionsHaveExactlyOneWriter() {
        assertThat(table.allowed(AclOperation.WRITE, Topics.OBJECT_UPLOADED)).containsExactly("uploader");
        assertThat(table.allowed(AclOperation.WRITE, Topics.OBJECT_VERIFIED)).containsExactly("verifier");
        assertThat(table.allowed(AclOperation.WRITE, Topics.GATE_PASSED)).containsExactly("gatekeeper");
        assertThat(table.allowed(AclOperation.WRITE, Topics.GATE_DENIED)).containsExactly("gatekeeper");
        assertThat(table.allowed(AclOperation.WRITE, Topics.GATE_INVENTORY)).containsExactly("gatekeeper");
        assertThat(table.allowed(AclOperation.WRITE, Topics.VOLUME_RELEASED)).containsExactly("provider-adapter");
        assertThat(table.allowed(AclOperation.WRITE, Topics.VOLUME_DESTROYED)).containsExactly("provider-adapter");
        assertThat(table.allowed(AclOperation.WRITE, Topics.SHARD_BUILT)).containsExactly("shard-builder");
        assertThat(table.allowed(AclOperation.WRITE, Topics.DATASET_SEALED)).containsExactly("shard-builder");
    }

    @Test
    void aReleaseIsRequestedOnlyThroughTheGatekeepersApiOrByTheProviderAdaptersOwnVolumes() {
        // the CLI asks the gatekeeper over HTTP (operator token, requestedBy recorded); it never writes the topic itself
        assertThat(table.allowed(AclOperation.WRITE, Topics.VOLUME_RELEASE_REQUESTED))
                .containsExactly("gatekeeper", "provider-adapter");
    }

    @Test
    void noOneWritesEveryTopicAndOnlyTheLedgerReadsEveryTopic() {
        assertThat(table.rules()).noneMatch(r -> r.resourceType() == ResourceType.TOPIC && r.name().equals("*")
                && r.operation() != AclOperation.READ);
        assertThat(table.rules()).filteredOn(r -> r.name().equals("*")).extracting(KafkaAclTable.Rule::principal)
                .containsExactly("ledger");
        assertThat(table.rules()).noneMatch(r -> r.operation() == AclOperation.ALL);
        assertThat(table.rules()).as("a prefix only for groups, one per instance; every topic is named")
                .filteredOn(r -> r.pattern() != PatternType.LITERAL)
                .allMatch(r -> r.resourceType() == ResourceType.GROUP && r.pattern() == PatternType.PREFIXED
                        && r.name().length() > "stowage-".length());
    }

    @Test
    void aGroupPerInstanceGetsAPrefixedGroupRuleAndALeaseItsTopicAndGroup() {
        Properties p = new Properties();
        p.setProperty("mp.messaging.incoming.verified.connector", "smallrye-kafka");
        p.setProperty("mp.messaging.incoming.verified.topic", "object.verified");
        p.setProperty("mp.messaging.incoming.verified.group.id", "stowage-uploader-verified-${stowage.instance:1}");
        p.setProperty(KafkaChannelAcls.LEASE + "uploader", "stowage-uploader-lease");

        assertThat(lines(KafkaChannelAcls.derive("uploader", p))).containsExactly(
                "uploader READ TOPIC object.verified LITERAL",
                "uploader READ TOPIC stowage.lease LITERAL",
                "uploader READ GROUP stowage-uploader-lease LITERAL",
                "uploader READ GROUP stowage-uploader-verified- PREFIXED");

        Properties bare = new Properties();
        bare.putAll(p);
        bare.setProperty("mp.messaging.incoming.verified.group.id", "${stowage.instance}");
        assertThatThrownBy(() -> KafkaChannelAcls.derive("uploader", bare)).hasMessageContaining("starts with an expression");
        assertThat(table.rules()).as("the uploader's instances each read every verification result")
                .anyMatch(r -> r.principal().equals("uploader") && r.name().equals("stowage-uploader-verified-")
                        && r.pattern() == PatternType.PREFIXED);
        assertThat(table.allowed(AclOperation.READ, Topics.LEASE)).contains("uploader", "verifier");
    }

    @Test
    void theCliNeitherReadsNorJoinsAGroup() {
        assertThat(table.rules()).filteredOn(r -> r.principal().equals("operator"))
                .allMatch(r -> r.operation() == AclOperation.WRITE && r.resourceType() == ResourceType.TOPIC)
                .extracting(KafkaAclTable.Rule::name).containsExactlyInAnyOrder(Topics.CHECKPOINT_PUBLISHED, Topics.ARCHIVE_PUBLISHED,
                        Topics.MODEL_PUBLISHED, Topics.MODEL_SHARED, Topics.RUN_STARTED, Topics.RUN_PROGRESS,
                        Topics.RUN_FINISHED);
    }

    @Test
    void aNewChannelIsPickedUpWithoutNaming() {
        Properties p = new Properties();
        p.setProperty("mp.messaging.outgoing.expired.connector", "smallrye-kafka");
        p.setProperty("mp.messaging.outgoing.expired.topic", "checkpoint.expired");
        p.setProperty("mp.messaging.outgoing.model-sealed.connector", "smallrye-kafka");
        p.setProperty("mp.messaging.incoming.plan.connector", "smallrye-kafka");
        p.setProperty("mp.messaging.incoming.plan.topics", "a.b, c.d");
        p.setProperty("mp.messaging.incoming.plan.group.id", "stowage-retention");
        p.setProperty("mp.messaging.incoming.plan.failure-strategy", "dead-letter-queue");
        p.setProperty("mp.messaging.incoming.plan.dead-letter-queue.topic", "a.b.dlq");
        p.setProperty("mp.messaging.outgoing.local.connector", "smallrye-in-memory");
        p.setProperty("%test.mp.messaging.outgoing.other.connector", "smallrye-kafka");

        assertThat(lines(KafkaChannelAcls.derive("retention", p))).containsExactly(
                "retention READ TOPIC a.b LITERAL",
                "retention WRITE TOPIC a.b.dlq LITERAL",
                "retention READ TOPIC c.d LITERAL",
                "retention WRITE TOPIC checkpoint.expired LITERAL",
                "retention WRITE TOPIC model-sealed LITERAL",
                "retention READ GROUP stowage-retention LITERAL");
    }

    @Test
    void routedTopicsAreDeclaredAndAWildcardCoversLiterals() {
        Properties p = new Properties();
        p.setProperty("mp.messaging.outgoing.out.connector", "smallrye-kafka");
        p.setProperty("mp.messaging.outgoing.out.topic", "x");
        p.setProperty(KafkaChannelAcls.ROUTED + "out", "*.dlq");
        p.setProperty("mp.messaging.incoming.all.connector", "smallrye-kafka");
        p.setProperty("mp.messaging.incoming.all.group.id", "g");
        p.setProperty(KafkaChannelAcls.ROUTED + "all", "*");
        p.setProperty("mp.messaging.incoming.dead.connector", "smallrye-kafka");
        p.setProperty("mp.messaging.incoming.dead.topic", "gate.passed.dlq");
        p.setProperty("mp.messaging.incoming.dead.group.id", "g");

        List<String> rules = lines(KafkaChannelAcls.derive("l", p));

        assertThat(rules).contains("l READ TOPIC * LITERAL", "l WRITE TOPIC x LITERAL", "l READ GROUP g LITERAL")
                .doesNotContain("l READ TOPIC gate.passed.dlq LITERAL");
        assertThat(rules).filteredOn(r -> r.startsWith("l WRITE TOPIC ") && r.contains(".dlq")).hasSize(Topics.ALL.size());
    }

    @Test
    void anAssignedReaderGetsReadOnItsTopicsAndNoGroup() {
        Properties p = new Properties();
        p.setProperty(KafkaChannelAcls.ASSIGNED + "decision-journal", "gate.passed, gate.denied");

        assertThat(lines(KafkaChannelAcls.derive("gatekeeper", p))).containsExactly(
                "gatekeeper READ TOPIC gate.denied LITERAL", "gatekeeper READ TOPIC gate.passed LITERAL");
    }

    @Test
    void theGatekeeperReadsItsOwnDecisionsBackAndStillIsTheirOnlyWriter() {
        assertThat(table.allowed(AclOperation.READ, Topics.GATE_PASSED)).contains("gatekeeper", "provider-adapter");
        assertThat(table.allowed(AclOperation.READ, Topics.GATE_DENIED)).contains("gatekeeper", "provider-adapter");
        assertThat(table.allowed(AclOperation.WRITE, Topics.GATE_PASSED)).containsExactly("gatekeeper");
    }

    @Test
    void aConsumerWithoutGroupOrDeadLetterTopicIsRefused() {
        Properties noGroup = new Properties();
        noGroup.setProperty("mp.messaging.incoming.in.connector", "smallrye-kafka");
        noGroup.setProperty("mp.messaging.incoming.in.topic", "t");
        assertThatThrownBy(() -> KafkaChannelAcls.derive("s", noGroup)).hasMessageContaining("in has no group.id");

        Properties noDlq = new Properties();
        noDlq.putAll(noGroup);
        noDlq.setProperty("mp.messaging.incoming.in.group.id", "g");
        noDlq.setProperty("mp.messaging.incoming.in.failure-strategy", "dead-letter-queue");
        assertThatThrownBy(() -> KafkaChannelAcls.derive("s", noDlq)).hasMessageContaining("without dead-letter-queue.topic");
    }

    private static List<String> lines(List<KafkaAclTable.Rule> rules) {
        return rules.stream().sorted(KafkaChannelAcls.ORDER).map(r -> r.principal() + " " + r.operation() + " "
                + r.resourceType() + " " + r.name() + " " + r.pattern()).toList();
    }
}
