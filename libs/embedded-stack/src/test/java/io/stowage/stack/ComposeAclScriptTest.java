package io.stowage.stack;

import org.apache.kafka.common.acl.AclOperation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the compose stack's {@code compose/kafka/apply-acls.sh} with bash, the Kafka tools replaced by stubs that
 * record their arguments, and checks it turns {@code compose/kafka/acls.txt} into the same ACLs, SCRAM users and
 * topics that {@link KafkaScramAclTest} creates on a real broker (the script itself needs the Kafka image to run).
 */
class ComposeAclScriptTest {

    @TempDir
    Path dir;

    private Result run(Map<String, String> passwords) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path calls = dir.resolve("calls.txt");
        for (String tool : List.of("kafka-topics.sh", "kafka-configs.sh", "kafka-acls.sh")) {
            Path stub = bin.resolve(tool);
            Files.writeString(stub, "#!/bin/bash\necho \"" + tool + " $*\" >> '" + calls + "'\n", StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwx------"));
        }
        Path script = KafkaAclTable.locate().resolveSibling("apply-acls.sh");
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("out.txt").toFile());
        pb.environment().put("KAFKA_BIN", bin.toString());
        pb.environment().put("KAFKA_ACL_TABLE", KafkaAclTable.locate().toString());
        pb.environment().put("KAFKA_ADMIN_CONFIG", dir.resolve("admin.properties").toString());
        pb.environment().put("KAFKA_ADMIN_PASSWORD", "admin-canary");
        pb.environment().putAll(passwords);
        Process process = pb.start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        List<String> lines = Files.exists(calls) ? Files.readAllLines(calls) : List.of();
        return new Result(process.exitValue(), lines, Files.readString(dir.resolve("out.txt")));
    }

    private record Result(int code, List<String> calls, String output) {
    }

    private static Map<String, String> passwords(KafkaAclTable table) {
        Map<String, String> env = new TreeMap<>();
        table.principals().forEach(p -> env.put("KAFKA_PASSWORD_" + p.toUpperCase(Locale.ROOT).replace('-', '_'), "pw-" + p));
        return env;
    }

    @Test
    void theScriptAddsExactlyTheTablesAclsAndOneScramUserPerPrincipal() throws Exception {
        KafkaAclTable table = KafkaAclTable.read(KafkaAclTable.locate());

        Result result = run(passwords(table));

        assertThat(result.code()).as(result.output()).isZero();
        List<String> expectedAcls = new ArrayList<>();
        for (KafkaAclTable.Rule r : table.rules()) {
            String resource = switch (r.resourceType()) {
                case TOPIC -> "--topic " + r.name();
                case GROUP -> "--group " + r.name();
                default -> "--cluster";
            };
            expectedAcls.add("kafka-acls.sh --bootstrap-server kafka:9092 --command-config " + dir.resolve("admin.properties")
                    + " --add --allow-principal User:" + r.principal() + " --operation " + r.operation().name() + " "
                    + resource + " --resource-pattern-type " + r.pattern().name().toLowerCase(Locale.ROOT));
        }
        assertThat(result.calls().stream().filter(c -> c.startsWith("kafka-acls.sh")).toList())
                .containsExactlyElementsOf(expectedAcls);
        List<String> users = result.calls().stream().filter(c -> c.startsWith("kafka-configs.sh")).toList();
        assertThat(users).hasSize(table.principals().size());
        for (String principal : table.principals()) {
            assertThat(users).anyMatch(c -> c.contains("SCRAM-SHA-512=[iterations=4096,password=pw-" + principal + "]")
                    && c.endsWith("--entity-type users --entity-name " + principal));
        }
        assertThat(result.calls()).anyMatch(c -> c.startsWith("kafka-topics.sh") && c.contains("--topic gate.passed "))
                .anyMatch(c -> c.startsWith("kafka-topics.sh") && c.contains("--topic volume.released.dlq "));
        assertThat(Files.readString(dir.resolve("admin.properties"))).contains("password=\"admin-canary\"");
        assertThat(table.allowed(AclOperation.WRITE, "gate.passed")).containsExactly("gatekeeper");
    }

    @Test
    void aMissingPasswordStopsTheScriptBeforeAnyAcl() throws Exception {
        KafkaAclTable table = KafkaAclTable.read(KafkaAclTable.locate());
        Map<String, String> env = passwords(table);
        env.remove("KAFKA_PASSWORD_GATEKEEPER");

        Result result = run(env);

        assertThat(result.code()).isNotZero();
        assertThat(result.output()).contains("KAFKA_PASSWORD_GATEKEEPER");
        assertThat(result.calls()).noneMatch(c -> c.startsWith("kafka-acls.sh"));
    }
}
