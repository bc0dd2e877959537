package io.stowage.stack;

import io.stowage.events.Topics;
import io.stowage.messaging.ClusterLease;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The cluster lease that lets one instance of a service run its periodic jobs, against the stack as {@code stowage up}
 * starts it (a real broker with SCRAM users and the ACL table of {@code compose/kafka/acls.txt}): of two instances
 * exactly one holds it, never both; when the holder leaves, the other takes it; each service's group is its own; a
 * principal the table does not allow is refused by the broker and runs unguarded; without the lease topic every
 * instance runs unguarded rather than none.
 */
class ClusterLeaseTest {
    private static final String VERIFIER_GROUP = "stowage-verifier-lease";

    @Test
    void exactlyOneInstanceHoldsTheLeaseAndTheOtherTakesItWhenTheHolderLeaves(@TempDir Path dir) throws Exception {
        KafkaSecurity security = KafkaSecurity.generate(KafkaAclTable.read(KafkaAclTable.locate()));
        List<ClusterLease> leases = new ArrayList<>();
        try (EmbeddedStack stack = EmbeddedStack.start(dir, StackCredentials.random(), security)) {
            try (Admin admin = Admin.create(new HashMap<>(stack.kafkaSuperUser()))) {
                TopicDescription topic = admin.describeTopics(List.of(Topics.LEASE)).allTopicNames().get(30, TimeUnit.SECONDS)
                        .get(Topics.LEASE);
                assertThat(topic.partitions()).as("the lease topic has one partition").hasSize(1);
            }
            Map<String, String> verifier = stack.kafkaClient("verifier");
            ClusterLease a = track(leases, ClusterLease.of("verifier", VERIFIER_GROUP, verifier).start());
            ClusterLease b = track(leases, ClusterLease.of("verifier", VERIFIER_GROUP, verifier).start());
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> a.state() == ClusterLease.State.HELD || b.state() == ClusterLease.State.HELD);
            long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            int heldSamples = 0;
            while (System.nanoTime() < end) {
                assertThat(a.held() && b.held()).as("never both instances at once").isFalse();
                heldSamples += a.held() || b.held() ? 1 : 0;
                Thread.sleep(50);
            }
            assertThat(heldSamples).as("the lease stays held between heartbeats").isGreaterThan(80);
            assertThat(a.unguardedBecause()).isNull();
            assertThat(b.unguardedBecause()).isNull();

            ClusterLease uploader = track(leases, ClusterLease.of("uploader", "stowage-uploader-lease",
                    stack.kafkaClient("uploader")).start());
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> uploader.state() == ClusterLease.State.HELD);
            assertThat(a.held() ^ b.held()).as("another service's lease is its own group").isTrue();

            ClusterLease holder = a.held() ? a : b;
            ClusterLease other = holder == a ? b : a;
            holder.close();
            assertThat(holder.held()).isFalse();
            long left = System.nanoTime();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> other.state() == ClusterLease.State.HELD);
            System.out.printf("lease handed on %.1f s after the holder left its group%n",
                    (System.nanoTime() - left) / 1e9);

            ClusterLease forged = track(leases, ClusterLease.of("verifier", VERIFIER_GROUP, stack.kafkaClient("uploader"))
                    .start());
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> forged.state() == ClusterLease.State.UNGUARDED);
            assertThat(forged.unguardedBecause()).as("the broker refuses another principal the verifier's group")
                    .contains("refuses");
            assertThat(other.state()).as("and the holder keeps it").isEqualTo(ClusterLease.State.HELD);

            try (Admin admin = Admin.create(new HashMap<>(stack.kafkaSuperUser()))) {
                admin.deleteTopics(Set.of(Topics.LEASE)).all().get(30, TimeUnit.SECONDS);
            }
            ClusterLease noTopic = track(leases, ClusterLease.of("verifier", VERIFIER_GROUP, verifier).start());
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> noTopic.state() == ClusterLease.State.UNGUARDED);
            assertThat(noTopic.unguardedBecause()).contains("does not exist");
            assertThat(noTopic.held()).as("no lease topic: the jobs run rather than never").isTrue();
        } finally {
            leases.forEach(ClusterLease::close);
        }
    }

    @Test
    void aPausedHolderLosesTheLeaseAndOnceResumedDoesNotCountItselfHolder(@TempDir Path dir) throws Exception {
        KafkaSecurity security = KafkaSecurity.generate(KafkaAclTable.read(KafkaAclTable.locate()));
        try (EmbeddedStack stack = EmbeddedStack.start(dir, StackCredentials.random(), security)) {
            Path login = dir.resolve("verifier.properties");
            java.util.Properties p = new java.util.Properties();
            p.putAll(stack.kafkaClient("verifier"));
            try (var out = java.nio.file.Files.newOutputStream(login)) {
                p.store(out, null);
            }
            List<Process> children = new ArrayList<>();
            List<Path> outputs = List.of(dir.resolve("lease-1.out"), dir.resolve("lease-2.out"));
            try {
                for (Path out : outputs) {
                    children.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                            "-cp", System.getProperty("java.class.path"), LeaseHolderMain.class.getName(), "verifier",
                            VERIFIER_GROUP, login.toString())
                            .redirectErrorStream(true).redirectOutput(out.toFile()).start());
                }
                // settled: one of the two processes reports HELD, the other NOT_HELD, for a second
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                        .until(() -> lastState(outputs.get(0)).equals("HELD") ^ lastState(outputs.get(1)).equals("HELD"));
                Thread.sleep(1_000);
                int h = lastState(outputs.get(0)).equals("HELD") ? 0 : 1;
                assertThat(lastState(outputs.get(1 - h))).isEqualTo("NOT_HELD");
                Path holderOut = outputs.get(h);
                Path otherOut = outputs.get(1 - h);

                signal("STOP", children.get(h).pid());
                long paused = System.currentTimeMillis();
                await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(100))
                        .until(() -> lastState(otherOut).equals("HELD"));
                System.out.printf("lease handed on %.1f s after its holder was paused%n",
                        (System.currentTimeMillis() - paused) / 1e3);
                Thread.sleep(1_000);
                long resumed = System.currentTimeMillis();
                signal("CONT", children.get(h).pid());
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                        .until(() -> linesAfter(holderOut, resumed).size() >= 5);
                assertThat(linesAfter(holderOut, resumed).get(0))
                        .as("the first state the resumed holder reports, while the other process holds the lease")
                        .endsWith(" NOT_HELD");
            } finally {
                for (Process child : children) {
                    child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    private static String lastState(Path lines) throws java.io.IOException {
        if (!java.nio.file.Files.exists(lines)) {
            return "";
        }
        List<String> states = java.nio.file.Files.readAllLines(lines).stream().filter(l -> l.matches("\\d+ [A-Z_]+"))
                .map(l -> l.substring(l.indexOf(' ') + 1)).toList();
        return states.isEmpty() ? "" : states.get(states.size() - 1);
    }

    private static void signal(String signal, long pid) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).inheritIO().start().waitFor())
                .as("kill -" + signal).isZero();
    }

    private static List<String> linesAfter(Path lines, long millis) throws java.io.IOException {
        return java.nio.file.Files.readAllLines(lines).stream().filter(l -> l.matches("\\d+ [A-Z_]+"))
                .filter(l -> Long.parseLong(l.substring(0, l.indexOf(' '))) >= millis).toList();
    }

    @Test
    void withoutAGroupTheLeaseIsUnguardedAndHeld() {
        try (ClusterLease lease = ClusterLease.of("scrub", null, Map.of("bootstrap.servers", "127.0.0.1:1")).start()) {
            assertThat(lease.state()).isEqualTo(ClusterLease.State.UNGUARDED);
            assertThat(lease.held()).isTrue();
            assertThat(lease.unguardedBecause()).contains("stowage.kafka.lease.scrub");
        }
    }

    private static ClusterLease track(List<ClusterLease> leases, ClusterLease lease) {
        leases.add(lease);
        return lease;
    }
}
