package io.stowage.stack;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A single-node Kafka 4.1 cluster (KRaft, broker and controller in one process) run in a child JVM
 * under a work directory; produces the bootstrap address once a client has seen the broker.
 *
 * <p>A child JVM rather than an in-process broker: the broker's Scala runtime, log4j2 and ~500 MB of
 * heap stay out of the test JVM (and out of the Quarkus test class loader), and its logs go to
 * {@code kafka.log}. The JVM runs with the C1 compiler only ({@code -XX:TieredStopAtLevel=1}), which cuts the
 * broker's start-up CPU from about 6.8 s to 4.4 s; override with {@code -Dstowage.stack.kafka.jvm-options=...}.
 */
final class KafkaBroker implements AutoCloseable {
    private final ChildProcess process;
    private final String bootstrapServers;

    private KafkaBroker(ChildProcess process, String bootstrapServers) {
        this.process = process;
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * Writes the configuration under {@code dir} and starts the broker JVM (returns before it listens).
     *
     * @throws IOException when the configuration cannot be written or the JVM cannot be started
     */
    static KafkaBroker launch(Path dir) throws IOException {
        return launch(dir, (port, controllerPort) -> new Properties(), List.of());
    }

    /**
     * As {@link #launch(Path)}, with server properties added or replaced (e.g. SASL listeners and an authorizer) and
     * extra arguments for the storage format (e.g. {@code --add-scram}); the default stack uses neither.
     *
     * @param overrides  given the client port and the controller port, the properties to set over the defaults
     * @param formatArgs appended to {@code kafka-storage format}
     * @throws IOException when the configuration cannot be written or the JVM cannot be started
     */
    static KafkaBroker launch(Path dir, java.util.function.BiFunction<Integer, Integer, Properties> overrides,
                              List<String> formatArgs) throws IOException {
        Files.createDirectories(dir);
        int port = ChildProcess.freePort();
        int controllerPort = ChildProcess.freePort();
        Path config = dir.resolve("server.properties");
        Properties properties = serverProperties(dir, port, controllerPort);
        properties.putAll(overrides.apply(port, controllerPort));
        writeProperties(config, properties);
        Path log4j = dir.resolve("log4j2.properties");
        Files.writeString(log4j, "rootLogger.level=WARN\nrootLogger.appenderRef.out.ref=out\n"
                + "appender.out.type=Console\nappender.out.name=out\nappender.out.layout.type=PatternLayout\n"
                + "appender.out.layout.pattern=%d{ISO8601} %-5p [%c] %m%n\n", StandardCharsets.UTF_8);
        List<String> jvm = new ArrayList<>(List.of(System.getProperty("stowage.stack.kafka.jvm-options",
                "-Xms64m -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError").split("\\s+")));
        jvm.addAll(List.of("-Dlog4j2.configurationFile=" + log4j, "-Djava.awt.headless=true",
                "-cp", BrokerClasspath.build()));
        ChildProcess child = ChildProcess.start("kafka broker", ChildProcess.java(jvm,
                mainArgs(config, clusterId(dir), formatArgs)), dir, dir.resolve("kafka.log"));
        return new KafkaBroker(child, "127.0.0.1:" + port);
    }

    /** The format arguments may hold a password (--add-scram): they go through an owner-only file, not the command line. */
    private static List<String> mainArgs(Path config, String clusterId, List<String> formatArgs) throws IOException {
        List<String> args = new ArrayList<>(List.of(KafkaBrokerMain.class.getName(), config.toString(), clusterId));
        if (!formatArgs.isEmpty()) {
            Path file = config.resolveSibling("format.args");
            Files.deleteIfExists(file);
            Files.createFile(file, ownerOnly());
            Files.write(file, formatArgs, StandardCharsets.UTF_8);
            args.add("@" + file);
        }
        return args;
    }

    private static java.nio.file.attribute.FileAttribute<?> ownerOnly() {
        return java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    ChildProcess process() {
        return process;
    }

    private static Properties serverProperties(Path dir, int port, int controllerPort) {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("log.dirs", dir.resolve("data").toString());
        p.setProperty("num.partitions", "4");
        p.setProperty("default.replication.factor", "1");
        p.setProperty("min.insync.replicas", "1");
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", "4");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("transaction.state.log.num.partitions", "4");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("auto.create.topics.enable", "true");
        p.setProperty("log.cleaner.dedupe.buffer.size", String.valueOf(8 * 1024 * 1024));
        return p;
    }

    /** Owner-only: with SCRAM, the file holds the broker's own JAAS passwords. */
    private static void writeProperties(Path file, Properties properties) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, ownerOnly());
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            properties.store(out, "written by io.stowage.stack.KafkaBroker");
        }
    }

    /** The cluster id is kept in the work directory so that a restart reuses the formatted storage. */
    private static String clusterId(Path dir) throws IOException {
        Path file = dir.resolve("cluster.id");
        if (Files.exists(file)) {
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        }
        String id = org.apache.kafka.common.Uuid.randomUuid().toString();
        Files.writeString(file, id, StandardCharsets.UTF_8);
        return id;
    }

    /** Stops the broker JVM (controlled shutdown on SIGTERM); idempotent. */
    @Override
    public void close() {
        process.close();
    }
}
