package io.stowage.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A real Kafka, S3-compatible store and PostgreSQL for tests and local runs, under one work directory;
 * produces their {@link StackEndpoints}.
 *
 * <ul>
 *   <li>Kafka 4.1.2, KRaft, one combined broker/controller, run in a <b>child JVM</b> ({@link KafkaBrokerMain},
 *       class path written at build time), not in-process: the broker's Scala, log4j2 and heap stay out of the
 *       calling JVM and of Quarkus' test class loader (tried in a {@code @QuarkusTest} with {@link StowageStackResource}:
 *       the stack starts from Quarkus' class loader in about 4 s and the test sees its configuration); log in
 *       {@code kafka/kafka.log}.</li>
 *   <li>S3Proxy 4.1.0, filesystem backend, child JVM from its jar-with-dependencies; log in {@code s3/s3proxy.log}.</li>
 *   <li>PostgreSQL 17 (zonky binaries), database and role {@code stowage}; log in {@code postgres/postgres.log}.</li>
 * </ul>
 * All listen on free ports of 127.0.0.1. A shutdown hook and a shell watchdog ({@code OrphanReaper}) stop the
 * servers when this JVM ends, even by {@code kill -9}. Starting again in the same directory keeps the data.
 */
public final class EmbeddedStack implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(EmbeddedStack.class.getName());
    static final String PRIMARY_BUCKET = "stowage-primary";
    static final String REPLICA_BUCKET = "stowage-replica";
    private static final long TIMEOUT_MILLIS = Long.getLong("stowage.stack.start-timeout-ms", 120_000);

    private final KafkaBroker kafka;
    private final KafkaSecurity kafkaSecurity;
    private final String kafkaAdminPassword;
    private final S3ProxyServer s3;
    private final PostgresServer postgres;
    private final OrphanReaper reaper;
    private final StackEndpoints endpoints;
    private final Thread shutdownHook = new Thread(this::close, "stowage-stack-shutdown");
    private boolean closed;

    private EmbeddedStack(KafkaBroker kafka, KafkaSecurity kafkaSecurity, String kafkaAdminPassword, S3ProxyServer s3,
                          PostgresServer postgres, OrphanReaper reaper) {
        this.kafka = kafka;
        this.kafkaSecurity = kafkaSecurity;
        this.kafkaAdminPassword = kafkaAdminPassword;
        this.s3 = s3;
        this.postgres = postgres;
        this.reaper = reaper;
        this.endpoints = new StackEndpoints(kafka.bootstrapServers(), s3.endpoint(), S3ProxyServer.REGION,
                s3.accessKey(), s3.secretKey(), PRIMARY_BUCKET, REPLICA_BUCKET,
                "jdbc:postgresql://127.0.0.1:" + postgres.port() + "/" + PostgresServer.DATABASE,
                "postgresql://127.0.0.1:" + postgres.port() + "/" + PostgresServer.DATABASE,
                PostgresServer.USER, postgres.password());
    }

    /**
     * Starts Kafka, S3Proxy and PostgreSQL under {@code workDir} (created if missing), then creates the database,
     * both buckets and every topic of {@code Topics.ALL} and its dead-letter topic (4 partitions,
     * {@code retention.ms=-1}), waiting for partition leaders. Takes 3–4 s on an idle 2-core machine.
     *
     * @param workDir directory for the servers' data and logs; data of an earlier start there is kept
     * @return the running stack; close it to stop the servers
     *
     * @throws IOException when a server does not start within {@code stowage.stack.start-timeout-ms} (120 000 ms);
     *                     the message carries the end of its log; servers already started are stopped
     */
    public static EmbeddedStack start(Path workDir) throws IOException {
        return start(workDir, StackCredentials.random());
    }

    /**
     * Like {@link #start(Path)}, with the given credentials instead of random ones (the secrets canary test passes
     * recognisable values so that it can search for them afterwards).
     *
     * @param credentials S3Proxy's identity and the database role's password for this start
     * @throws IOException as {@link #start(Path)}
     */
    public static EmbeddedStack start(Path workDir, StackCredentials credentials) throws IOException {
        return start(workDir, credentials, null);
    }

    /**
     * Like {@link #start(Path, StackCredentials)}, with a broker secured as compose's (SASL_PLAINTEXT, SCRAM-SHA-512,
     * the {@code StandardAuthorizer} denying what no ACL allows; see {@link ScramKafka}) when {@code security} is given:
     * one SCRAM user per principal of its table with its password, exactly the table's ACLs, and the topics the table
     * names besides the stack's own. The super user {@code admin}'s password is kept in {@code kafka/admin.password}
     * (owner-only), since the formatted storage keeps the credential across starts; a {@code kafka/} directory left by a
     * PLAINTEXT start (no such file) is renamed aside to {@code kafka.plaintext-<epoch-ms>}, its data kept.
     *
     * @param security the users and ACLs to enforce, or null for the PLAINTEXT broker of {@link #start(Path)}
     * @throws IOException as {@link #start(Path)}, or when the broker refuses the users or ACLs
     */
    public static EmbeddedStack start(Path workDir, StackCredentials credentials, KafkaSecurity security) throws IOException {
        Path dir = Files.createDirectories(workDir.toAbsolutePath());
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(dir, credentials, security);
            } catch (IOException e) {
                // a free port can be taken by someone else before the server binds it: choose new ports
                if (attempt == 3 || !String.valueOf(e.getMessage()).contains("Address already in use")) {
                    throw e;
                }
                LOG.log(System.Logger.Level.WARNING, "a stack port was taken before its server bound it; starting again");
            }
        }
    }

    private static EmbeddedStack startOnce(Path dir, StackCredentials credentials, KafkaSecurity security) throws IOException {
        long started = System.nanoTime();
        OrphanReaper reaper = OrphanReaper.watch(dir);
        KafkaBroker kafka = null;
        S3ProxyServer s3 = null;
        PostgresServer postgres = null;
        try {
            String adminPassword = security == null ? null : adminPassword(dir.resolve("kafka"));
            kafka = security == null ? KafkaBroker.launch(dir.resolve("kafka")) : ScramKafka.launch(dir.resolve("kafka"), adminPassword);
            reaper.track(kafka.process());
            s3 = S3ProxyServer.launch(dir.resolve("s3"), credentials.s3AccessKey(), credentials.s3SecretKey());
            reaper.track(s3.process());
            postgres = PostgresServer.start(dir.resolve("postgres"), credentials.pgPassword());
            log("PostgreSQL 17", "127.0.0.1:" + postgres.port(), started);
            s3.awaitAndCreateBuckets(TIMEOUT_MILLIS, PRIMARY_BUCKET, REPLICA_BUCKET);
            log("S3Proxy", s3.endpoint(), started);
            if (security == null) {
                KafkaTopics.create(KafkaTopics.of(kafka), TIMEOUT_MILLIS);
            } else {
                KafkaTopics.create(KafkaTopics.of(kafka), superUser(kafka.bootstrapServers(), adminPassword),
                        security.table().topics(), security, TIMEOUT_MILLIS);
            }
            log(security == null ? "Kafka" : "Kafka (SCRAM, ACLs)", kafka.bootstrapServers(), started);
            EmbeddedStack stack = new EmbeddedStack(kafka, security, adminPassword, s3, postgres, reaper);
            Runtime.getRuntime().addShutdownHook(stack.shutdownHook);
            LOG.log(System.Logger.Level.INFO, "stowage stack up in {0,number,#} ms under {1}", elapsed(started), dir);
            return stack;
        } catch (IOException | RuntimeException e) {
            stopQuietly(s3, kafka, postgres, reaper);
            throw e;
        }
    }

    /** @return the admin password kept in {@code kafkaDir}, or a new one written there (a PLAINTEXT directory moved aside) */
    private static String adminPassword(Path kafkaDir) throws IOException {
        Path file = kafkaDir.resolve("admin.password");
        if (Files.isRegularFile(file)) {
            return Files.readString(file).strip();
        }
        if (Files.exists(kafkaDir.resolve("data"))) {
            Path aside = kafkaDir.resolveSibling("kafka.plaintext-" + System.currentTimeMillis());
            LOG.log(System.Logger.Level.WARNING, "{0} was formatted without SCRAM users; moved aside to {1} (data kept)"
                    + " and a new broker formatted with them", kafkaDir, aside);
            Files.move(kafkaDir, aside);
        }
        Files.createDirectories(kafkaDir);
        String password = ScramKafka.secret();
        Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, password + "\n");
        return password;
    }

    private static void log(String server, String address, long started) {
        LOG.log(System.Logger.Level.INFO, "{0} ready at {1} after {2,number,#} ms", server, address, elapsed(started));
    }

    private static long elapsed(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }

    /** @return where the servers listen, with their credentials */
    public StackEndpoints endpoints() {
        return endpoints;
    }

    /** @return the users and ACLs the broker enforces, or null when it is PLAINTEXT */
    public KafkaSecurity kafkaSecurity() {
        return kafkaSecurity;
    }

    /**
     * @param principal a principal of the ACL table, e.g. {@code uploader}
     * @return client settings logging in as {@code principal} (bootstrap only when the broker is PLAINTEXT)
     */
    public java.util.Map<String, String> kafkaClient(String principal) {
        return kafkaSecurity == null ? java.util.Map.of("bootstrap.servers", kafka.bootstrapServers())
                : kafkaSecurity.client(kafka.bootstrapServers(), principal);
    }

    /** @return client settings of the super user {@code admin} (bootstrap only when PLAINTEXT); for tests that read every topic */
    public java.util.Map<String, String> kafkaSuperUser() {
        if (kafkaSecurity == null) {
            return java.util.Map.of("bootstrap.servers", kafka.bootstrapServers());
        }
        return superUser(kafka.bootstrapServers(), kafkaAdminPassword);
    }

    private static java.util.Map<String, String> superUser(String bootstrap, String adminPassword) {
        java.util.Map<String, String> client = new java.util.LinkedHashMap<>();
        ScramKafka.adminClient(bootstrap, adminPassword).forEach((k, v) -> client.put((String) k, (String) v));
        return client;
    }

    /** The servers of the stack, as {@link #serverProcess} and {@link #restartServer} name them. */
    public static final List<String> SERVERS = List.of("kafka", "s3proxy", "postgres");

    /**
     * @param name one of {@link #SERVERS}
     * @return the server's process as it runs now (for PostgreSQL its postmaster, found by {@code postmaster.pid}),
     *         or empty when it is not running
     * @throws IllegalArgumentException for another name
     */
    public Optional<ProcessHandle> serverProcess(String name) {
        return switch (name) {
            case "kafka" -> Optional.of(kafka.process().handle()).filter(ProcessHandle::isAlive);
            case "s3proxy" -> Optional.of(s3.process().handle()).filter(ProcessHandle::isAlive);
            case "postgres" -> postgres.postmaster();
            default -> throw new IllegalArgumentException("no server named " + name + "; one of " + SERVERS);
        };
    }

    /**
     * @param name one of {@link #SERVERS}
     * @return the exit code of the server's process once it has ended; null while it runs, and always for PostgreSQL
     *         (its postmaster is no child of this JVM)
     */
    public Integer serverExitCode(String name) {
        return switch (name) {
            case "kafka" -> kafka.process().exitCode();
            case "s3proxy" -> s3.process().exitCode();
            default -> null;
        };
    }

    /**
     * Starts a server that has ended again, as it was first started: the same command, port, data directory and
     * credentials (Kafka's and S3Proxy's JVMs run their command again; PostgreSQL starts on its port and data and
     * recovers from its WAL), then waits until it answers (Kafka and S3Proxy: TCP, then HTTP for S3Proxy; PostgreSQL:
     * zonky's own check). Data written before it ended is kept. Does nothing to a server that runs.
     *
     * @param name one of {@link #SERVERS}
     * @return its process as it runs now
     * @throws IOException when it does not answer within {@code stowage.stack.start-timeout-ms} (120 000 ms), or the
     *                     stack was closed
     */
    public ProcessHandle restartServer(String name) throws IOException {
        synchronized (this) {
            if (closed) {
                throw new IOException("the stack is stopped");
            }
        }
        switch (name) {
            case "kafka" -> {
                kafka.process().relaunch();
                awaitPort(kafka.process(), kafka.bootstrapServers());
            }
            case "s3proxy" -> {
                s3.process().relaunch();
                s3.awaitAndCreateBuckets(TIMEOUT_MILLIS);
            }
            case "postgres" -> postgres.restart(TIMEOUT_MILLIS);
            default -> throw new IllegalArgumentException("no server named " + name + "; one of " + SERVERS);
        }
        reaper.trackOnly(List.of(kafka.process().pid(), s3.process().pid()));
        return serverProcess(name).orElseThrow(() -> new IOException(name + " ended again right after its restart"));
    }

    private static void awaitPort(ChildProcess process, String hostPort) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon);
        int port = Integer.parseInt(hostPort.substring(colon + 1));
        long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
        while (true) {
            try (java.net.Socket socket = new java.net.Socket()) {
                socket.connect(new java.net.InetSocketAddress(host, port), 500);
                return;
            } catch (IOException e) {
                process.checkAlive();
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("nothing answers on " + hostPort + " after a restart; last lines of its log:\n"
                            + process.tail(40));
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for " + hostPort, interrupted);
                }
            }
        }
    }

    /** Stops S3Proxy, Kafka and PostgreSQL at the same time and waits for all three (about 2.5 s); idempotent, never throws. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        long stopping = System.nanoTime();
        s3.process().requestStop();
        kafka.process().requestStop();
        stopQuietly(postgres, s3, kafka);
        reaper.close();
        LOG.log(System.Logger.Level.INFO, "stowage stack stopped in {0,number,#} ms", elapsed(stopping));
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // already shutting down: this is the hook
        }
    }

    /**
     * One stack per JVM for tests, even when several class loaders (JUnit's and Quarkus') ask: started on the
     * first call under a new temporary directory and stopped (directory deleted unless {@code -Dstowage.stack.keep=true})
     * by a shutdown hook. With {@code -Dstowage.stack.file=PATH} or {@code STOWAGE_STACK_FILE} naming the
     * {@code stack.json} of a running {@link StackMain}, that stack is used instead and nothing is started.
     * With {@code -Dstowage.stack=containers} (or {@code STOWAGE_STACK=containers}) the stack started is a
     * {@link ContainerStack} (Docker) instead of the embedded servers.
     *
     * @return the endpoints of the shared stack
     * @throws java.io.UncheckedIOException when the stack cannot be started or the file read
     * @throws IllegalArgumentException     when {@code stowage.stack} is neither {@code embedded} nor {@code containers}
     * @throws IllegalStateException        when {@code containers} is chosen and Testcontainers or a Docker engine is missing
     */
    public static synchronized StackEndpoints shared() {
        return SharedStack.endpoints();
    }

    private static void stopQuietly(AutoCloseable... servers) {
        for (AutoCloseable server : servers) {
            if (server == null) {
                continue;
            }
            try {
                server.close();
            } catch (Exception e) {
                LOG.log(System.Logger.Level.WARNING, "stopping " + server.getClass().getSimpleName() + " failed", e);
            }
        }
    }
}
