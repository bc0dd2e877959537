package io.stowage.stack;

import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The Kafka ACL table shared with compose ({@code compose/kafka/acls.txt}): one allow rule per line,
 * {@code principal operation resource-type resource-name pattern-type}; {@code #} starts a comment. Produces
 * {@link AclBinding}s for {@code Admin.createAcls}, principals {@code User:<name>}, any host.
 *
 * @param rules the rules in file order
 */
public record KafkaAclTable(List<Rule> rules) {

    /** The file, relative to the repository root. */
    public static final String FILE = "compose/kafka/acls.txt";

    /** One allow rule: {@code principal} may do {@code operation} on the resource. */
    public record Rule(String principal, AclOperation operation, ResourceType resourceType, String name, PatternType pattern) {
        /** @return this rule as an ACL binding: allow {@code User:<principal>} from any host */
        public AclBinding binding() {
            return new AclBinding(new ResourcePattern(resourceType, name, pattern),
                    new AccessControlEntry("User:" + principal, "*", operation, AclPermissionType.ALLOW));
        }
    }

    /**
     * @param file the table
     * @throws IOException when it cannot be read
     * @throws IllegalArgumentException naming the line when a line has not five fields or an unknown name
     */
    public static KafkaAclTable read(Path file) throws IOException {
        List<Rule> rules = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replaceFirst("#.*", "").strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\\s+");
            if (f.length != 5) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": expected 5 fields, found " + f.length);
            }
            try {
                rules.add(new Rule(f[0], AclOperation.valueOf(f[1].toUpperCase(Locale.ROOT)),
                        ResourceType.valueOf(f[2].toUpperCase(Locale.ROOT)), f[3],
                        PatternType.valueOf(f[4].toUpperCase(Locale.ROOT))));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return new KafkaAclTable(List.copyOf(rules));
    }

    /**
     * @return the table of this checkout, found by walking up from the working directory (a module directory when
     *         Maven runs tests)
     * @throws IllegalStateException when no parent directory holds it
     */
    public static Path locate() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve(FILE))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("no " + FILE + " above " + Path.of("").toAbsolutePath());
        }
        return dir.resolve(FILE);
    }

    /** @return every principal named, sorted */
    public Set<String> principals() {
        Set<String> names = new TreeSet<>();
        rules.forEach(r -> names.add(r.principal()));
        return names;
    }

    /** @return every literal topic the table names (the wildcard {@code *} excluded), sorted */
    public Set<String> topics() {
        Set<String> topics = new TreeSet<>();
        for (Rule r : rules) {
            if (r.resourceType() == ResourceType.TOPIC && r.pattern() == PatternType.LITERAL && !r.name().equals("*")) {
                topics.add(r.name());
            }
        }
        return topics;
    }

    /** @return the principals allowed {@code operation} on topic {@code topic}, by a literal, wildcard or prefix rule */
    public Set<String> allowed(AclOperation operation, String topic) {
        Set<String> names = new TreeSet<>();
        for (Rule r : rules) {
            boolean matches = r.resourceType() == ResourceType.TOPIC && switch (r.pattern()) {
                case LITERAL -> r.name().equals("*") || r.name().equals(topic);
                case PREFIXED -> topic.startsWith(r.name());
                default -> false;
            };
            if (matches && (r.operation() == operation || r.operation() == AclOperation.ALL)) {
                names.add(r.principal());
            }
        }
        return names;
    }

    /** @return the bindings to create */
    public List<AclBinding> bindings() {
        return rules.stream().map(Rule::binding).toList();
    }
}
