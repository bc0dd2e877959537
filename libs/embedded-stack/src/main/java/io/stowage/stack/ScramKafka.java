package io.stowage.stack;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.config.SaslConfigs;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;

/**
 * A separate single-node Kafka 4.1.2 (KRaft, child JVM) secured as the compose stack's broker (least privilege): clients on
 * SASL_PLAINTEXT with SCRAM-SHA-512, PLAIN between broker and controller, the {@code StandardAuthorizer} denying what
 * no ACL allows, {@code admin} and {@code controller} super users. For least-privilege tests; the default embedded
 * stack stays PLAINTEXT. Produces the bootstrap address and client settings; {@link #close()} stops the broker.
 */
public final class ScramKafka implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();
    private final KafkaBroker broker;
    private final Admin admin;

    private ScramKafka(KafkaBroker broker, Admin admin) {
        this.broker = broker;
        this.admin = admin;
    }

    /**
     * Formats storage under {@code dir} with the admin's SCRAM credential (random password), starts the broker and
     * waits until the admin is answered.
     *
     * @throws IOException           when the broker cannot be started
     * @throws IllegalStateException when it does not answer within 180 s (the message names its log)
     */
    public static ScramKafka start(Path dir) throws IOException {
        String adminPassword = secret();
        KafkaBroker broker = launch(dir, adminPassword);
        Admin admin = Admin.create(client(broker.bootstrapServers(), "admin", adminPassword));
        Instant deadline = Instant.now().plus(Duration.ofSeconds(180));
        while (true) {
            try {
                if (!admin.describeCluster().nodes().get().isEmpty()) {
                    return new ScramKafka(broker, admin);
                }
            } catch (ExecutionException | RuntimeException e) {
                if (Instant.now().isAfter(deadline)) {
                    admin.close(Duration.ofSeconds(2));
                    broker.close();
                    throw new IllegalStateException("the SCRAM broker did not answer in 180 s; see " + dir.resolve("kafka.log"), e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                admin.close(Duration.ofSeconds(2));
                broker.close();
                throw new IllegalStateException("interrupted while waiting for the SCRAM broker", e);
            }
            try {
                Thread.sleep(300); // polling a starting child process, not a test
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the SCRAM broker", e);
            }
        }
    }

    /**
     * Launches (without waiting) a broker secured as {@link #start} does, whose storage is formatted with the super
     * user {@code admin}'s SCRAM credential; a directory formatted earlier keeps the credential it was formatted with.
     */
    static KafkaBroker launch(Path dir, String adminPassword) throws IOException {
        String controllerPassword = secret();
        return KafkaBroker.launch(dir, (port, controllerPort) -> security(port, controllerPort,
                adminPassword, controllerPassword), List.of("--add-scram",
                "SCRAM-SHA-512=[name=admin,iterations=4096,password=" + adminPassword + "]"));
    }

    /**
     * Makes the broker enforce exactly {@code security}: upserts one SCRAM-SHA-512 user per principal, deletes every ACL
     * the table does not hold (a table changed since the last start), creates the table's ACLs, and waits (at most
     * {@code timeoutMillis}) until the authorizer answers with all of them and every user logs in with its password
     * (credentials and ACLs reach the broker from the metadata log, asynchronously).
     *
     * @throws ExecutionException   when the broker refuses one of them
     * @throws InterruptedException when interrupted while waiting
     * @throws IllegalStateException when the ACLs are not all visible in time
     */
    static void enforce(Admin admin, String bootstrap, KafkaSecurity security, long timeoutMillis)
            throws ExecutionException, InterruptedException {
        List<UserScramCredentialAlteration> users = new ArrayList<>();
        security.passwords().forEach((user, password) -> users.add(new UserScramCredentialUpsertion(user,
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password)));
        admin.alterUserScramCredentials(users).all().get();
        java.util.Set<org.apache.kafka.common.acl.AclBinding> wanted = new java.util.HashSet<>(security.table().bindings());
        List<org.apache.kafka.common.acl.AclBindingFilter> stale = admin.describeAcls(
                        org.apache.kafka.common.acl.AclBindingFilter.ANY).values().get().stream()
                .filter(b -> !wanted.contains(b)).map(org.apache.kafka.common.acl.AclBinding::toFilter).toList();
        if (!stale.isEmpty()) {
            admin.deleteAcls(stale).all().get();
        }
        admin.createAcls(List.copyOf(wanted)).all().get();
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (!new java.util.HashSet<>(admin.describeAcls(org.apache.kafka.common.acl.AclBindingFilter.ANY).values().get())
                .equals(wanted)) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("the broker's ACLs do not match the table after " + timeoutMillis + " ms");
            }
            Thread.sleep(100); // the authorizer learns new ACLs from the metadata log, asynchronously
        }
        for (String user : security.passwords().keySet()) {
            awaitLogin(security.client(bootstrap, user), user, deadline);
        }
    }

    private static void awaitLogin(Map<String, String> login, String user, long deadline) throws InterruptedException {
        Map<String, Object> config = new java.util.HashMap<>(login);
        config.put("default.api.timeout.ms", "5000");
        config.put("request.timeout.ms", "5000");
        while (true) {
            try (Admin probe = Admin.create(config)) {
                probe.describeCluster().nodes().get();
                return;
            } catch (ExecutionException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("the Kafka user " + user + " cannot log in: " + e.getCause().getMessage(), e);
                }
            }
            Thread.sleep(200); // the broker learns a changed SCRAM credential from the metadata log, asynchronously
        }
    }

    /** @return client settings logging in as the super user {@code admin} (for the stack's own admin client) */
    static Properties adminClient(String bootstrap, String adminPassword) {
        return client(bootstrap, "admin", adminPassword);
    }

    /** @return {@code 127.0.0.1:<port>} of the SASL_PLAINTEXT listener */
    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** @return an admin client logged in as the super user {@code admin}; closed by {@link #close()} */
    public Admin admin() {
        return admin;
    }

    /**
     * Creates one SCRAM-SHA-512 user per entry, the topics (1 partition each), and every ACL of {@code table}.
     *
     * @param table     the ACL table, e.g. {@code KafkaAclTable.read(KafkaAclTable.locate())}
     * @param passwords principal to password
     * @param topics    topics to create, e.g. {@link KafkaAclTable#topics()}
     * @throws ExecutionException   when the broker refuses one of them
     * @throws InterruptedException when interrupted while waiting for the broker's answers
     */
    public void apply(KafkaAclTable table, Map<String, String> passwords, Collection<String> topics)
            throws ExecutionException, InterruptedException {
        List<UserScramCredentialAlteration> users = new ArrayList<>();
        passwords.forEach((user, password) -> users.add(new UserScramCredentialUpsertion(user,
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password)));
        admin.alterUserScramCredentials(users).all().get();
        admin.createTopics(topics.stream().map(t -> new NewTopic(t, 1, (short) 1)).toList()).all().get();
        admin.createAcls(table.bindings()).all().get();
    }

    /** @return client settings (bootstrap, SASL_PLAINTEXT, SCRAM-SHA-512, JAAS) for {@code user} */
    public Properties client(String user, String password) {
        return client(broker.bootstrapServers(), user, password);
    }

    /** @return the {@code sasl.jaas.config} value logging in as {@code user} with SCRAM */
    public static String jaas(String user, String password) {
        return jaas("org.apache.kafka.common.security.scram.ScramLoginModule", user, password, "");
    }

    /** @return 32 random hex digits, for a password */
    public static String secret() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static Properties client(String bootstrap, String user, String password) {
        Properties p = new Properties();
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        p.put(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512");
        p.put(SaslConfigs.SASL_JAAS_CONFIG, jaas(user, password));
        return p;
    }

    /** The broker half, the same settings as compose/kafka/start-broker.sh writes. */
    private static Properties security(int port, int controllerPort, String adminPassword, String controllerPassword) {
        Properties p = new Properties();
        p.setProperty("listeners", "SASL_PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "SASL_PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("inter.broker.listener.name", "SASL_PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT");
        p.setProperty("sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512");
        p.setProperty("sasl.mechanism.controller.protocol", "PLAIN");
        p.setProperty("listener.name.sasl_plaintext.sasl.enabled.mechanisms", "SCRAM-SHA-512");
        p.setProperty("listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config", jaas("admin", adminPassword));
        p.setProperty("listener.name.controller.sasl.enabled.mechanisms", "PLAIN");
        p.setProperty("listener.name.controller.plain.sasl.jaas.config",
                jaas("org.apache.kafka.common.security.plain.PlainLoginModule", "controller", controllerPassword,
                        " user_controller=\"" + controllerPassword + "\""));
        p.setProperty("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.setProperty("super.users", "User:admin;User:controller");
        p.setProperty("allow.everyone.if.no.acl.found", "false");
        p.setProperty("auto.create.topics.enable", "false");
        return p;
    }

    private static String jaas(String module, String user, String password, String extra) {
        return module + " required username=\"" + user + "\" password=\"" + password + "\"" + extra + ";";
    }

    /** Closes the admin client and stops the broker JVM; idempotent. */
    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
        broker.close();
    }
}
