package io.stowage.stack;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The SCRAM users and ACLs an {@link EmbeddedStack} broker enforces: the ACL table ({@code compose/kafka/acls.txt}) and
 * one password per principal of it, fresh for every start ({@link #generate}). Produces each principal's client
 * settings and the environment a service logs in with. Passwords never leave through {@link #toString()}.
 *
 * @param table     the ACL table, e.g. {@code KafkaAclTable.read(KafkaAclTable.locate())}
 * @param passwords principal (e.g. {@code uploader}) to its SCRAM-SHA-512 password (32 hex digits)
 */
public record KafkaSecurity(KafkaAclTable table, Map<String, String> passwords) {
    /** The client listener's protocol. */
    public static final String PROTOCOL = "SASL_PLAINTEXT";
    /** The SASL mechanism of every client. */
    public static final String MECHANISM = "SCRAM-SHA-512";

    /** Copies the map; every principal of the table must have a password. */
    public KafkaSecurity {
        passwords = Map.copyOf(passwords);
        for (String principal : table.principals()) {
            if (!passwords.containsKey(principal)) {
                throw new IllegalArgumentException("no Kafka password for principal " + principal);
            }
        }
    }

    /** @return a random password (from {@link java.security.SecureRandom}) for every principal of {@code table} */
    public static KafkaSecurity generate(KafkaAclTable table) {
        Map<String, String> passwords = new TreeMap<>();
        table.principals().forEach(p -> passwords.put(p, ScramKafka.secret()));
        return new KafkaSecurity(table, passwords);
    }

    /**
     * @param bootstrap {@code host:port} of the broker
     * @param principal a principal of the table
     * @return client settings: {@code bootstrap.servers}, {@code security.protocol}, {@code sasl.mechanism},
     *         {@code sasl.jaas.config} logging in as {@code principal}
     * @throws IllegalArgumentException for a principal the table does not name
     */
    public Map<String, String> client(String bootstrap, String principal) {
        Map<String, String> client = new LinkedHashMap<>();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        client.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, PROTOCOL);
        client.put(SaslConfigs.SASL_MECHANISM, MECHANISM);
        client.put(SaslConfigs.SASL_JAAS_CONFIG, ScramKafka.jaas(principal, password(principal)));
        return client;
    }

    /**
     * @return the environment a Quarkus service logs in with as {@code principal}: {@code KAFKA_SECURITY_PROTOCOL},
     *         {@code KAFKA_SASL_MECHANISM}, {@code KAFKA_SASL_JAAS_CONFIG} (the variables compose sets)
     * @throws IllegalArgumentException for a principal the table does not name
     */
    public Map<String, String> environment(String principal) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("KAFKA_SECURITY_PROTOCOL", PROTOCOL);
        env.put("KAFKA_SASL_MECHANISM", MECHANISM);
        env.put("KAFKA_SASL_JAAS_CONFIG", ScramKafka.jaas(principal, password(principal)));
        return env;
    }

    private String password(String principal) {
        String password = passwords.get(principal);
        if (password == null) {
            throw new IllegalArgumentException("the Kafka ACL table has no principal " + principal);
        }
        return password;
    }

    /** @return the principals, passwords masked */
    @Override
    public String toString() {
        return "KafkaSecurity[" + passwords.keySet() + ", passwords ****]";
    }
}
