package io.stowage.stack;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.MinIOContainer;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.postgresql.PostgreSQLContainer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The same servers as {@link EmbeddedStack}, in Docker containers through Testcontainers, for machines that have a
 * Docker engine ({@code -Dstowage.stack=containers}); produces the same {@link StackEndpoints}: Kafka (KRaft,
 * {@value #KAFKA_IMAGE}), MinIO ({@value #MINIO_IMAGE}) and PostgreSQL 17 ({@value #POSTGRES_IMAGE}), with the
 * buckets {@code stowage-primary}, {@code stowage-replica} and every topic of {@code Topics.ALL} plus its
 * dead-letter topic (4 partitions, {@code retention.ms=-1}).
 *
 * <p><b>Compiled, never run:</b> the machines this was written on have no Docker engine. Containers are removed by
 * {@link #close()}, and by Testcontainers' Ryuk container if the JVM dies first.
 */
public final class ContainerStack implements AutoCloseable {
    static final String KAFKA_IMAGE = "apache/kafka:4.1.2";
    static final String MINIO_IMAGE = "minio/minio:RELEASE.2025-09-07T16-13-09Z";
    static final String POSTGRES_IMAGE = "postgres:17";
    private static final String REGION = "us-east-1";
    private static final long TIMEOUT_MILLIS = Long.getLong("stowage.stack.start-timeout-ms", 120_000);

    private final KafkaContainer kafka;
    private final MinIOContainer minio;
    private final PostgreSQLContainer postgres;
    private final StackEndpoints endpoints;
    private boolean closed;

    private ContainerStack(KafkaContainer kafka, MinIOContainer minio, PostgreSQLContainer postgres) {
        this.kafka = kafka;
        this.minio = minio;
        this.postgres = postgres;
        String pg = postgres.getHost() + ":" + postgres.getMappedPort(5432) + "/" + PostgresServer.DATABASE;
        this.endpoints = new StackEndpoints(kafka.getBootstrapServers(), minio.getS3URL(), REGION,
                minio.getUserName(), minio.getPassword(), EmbeddedStack.PRIMARY_BUCKET, EmbeddedStack.REPLICA_BUCKET,
                "jdbc:postgresql://" + pg, "postgresql://" + pg, postgres.getUsername(), postgres.getPassword());
    }

    /**
     * Pulls (first time only) and starts the three containers in parallel, then creates both buckets and the topics.
     *
     * @return the running stack; close it to remove the containers
     * @throws IllegalStateException when no Docker engine is reachable (checked first, before any container)
     * @throws IOException           when a container does not start, or the buckets or topics cannot be created
     *                               within {@code stowage.stack.start-timeout-ms} (120 000 ms); started containers are removed
     */
    public static ContainerStack start() throws IOException {
        StackBackend.requireDocker(true, ContainerStack::dockerProblem);
        KafkaContainer kafka = new KafkaContainer(KAFKA_IMAGE).withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
        MinIOContainer minio = new MinIOContainer(MINIO_IMAGE)
                .withUserName("stowage-" + Secrets.random(8)).withPassword(Secrets.random(20));
        PostgreSQLContainer postgres = new PostgreSQLContainer(POSTGRES_IMAGE).withDatabaseName(PostgresServer.DATABASE)
                .withUsername(PostgresServer.USER).withPassword(Secrets.random(16));
        try {
            Startables.deepStart(kafka, minio, postgres).join();
            ContainerStack stack = new ContainerStack(kafka, minio, postgres);
            for (String bucket : List.of(EmbeddedStack.PRIMARY_BUCKET, EmbeddedStack.REPLICA_BUCKET)) {
                S3Buckets.create(minio.getS3URL(), REGION, minio.getUserName(), minio.getPassword(), bucket);
            }
            KafkaTopics.create(broker(kafka), TIMEOUT_MILLIS);
            return stack;
        } catch (IOException | RuntimeException e) {
            stopAll(kafka, minio, postgres);
            throw e instanceof IOException io ? io : new IOException("the stowage containers did not start: " + e.getMessage(), e);
        }
    }

    /** @return null when Testcontainers reaches a Docker engine, else why it does not */
    static String dockerProblem() {
        try {
            DockerClientFactory.instance().client(); // the first failure says why; later calls only "will not retry"
            return null;
        } catch (RuntimeException e) {
            String host = System.getenv("DOCKER_HOST");
            return e.getMessage() + " (DOCKER_HOST " + (host == null ? "unset" : "'" + host + "'") + "; /var/run/docker.sock "
                    + (Files.exists(Path.of("/var/run/docker.sock")) ? "present" : "missing") + ")";
        }
    }

    private static KafkaTopics.Broker broker(KafkaContainer kafka) {
        return new KafkaTopics.Broker() {
            public String bootstrapServers() {
                return kafka.getBootstrapServers();
            }

            public void checkAlive() throws IOException {
                if (!kafka.isRunning()) {
                    throw new IOException("the Kafka container stopped; last lines of its log:\n" + logTail());
                }
            }

            public String logTail() {
                List<String> lines = kafka.getLogs().lines().toList();
                return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
            }
        };
    }

    /** @return where the containers listen (mapped ports on the Docker host), with their credentials */
    public StackEndpoints endpoints() {
        return endpoints;
    }

    /** Stops and removes the three containers; idempotent, never throws. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            stopAll(kafka, minio, postgres);
        }
    }

    private static void stopAll(GenericContainer<?>... containers) {
        for (GenericContainer<?> container : containers) {
            try {
                container.stop();
            } catch (RuntimeException e) {
                System.getLogger(ContainerStack.class.getName()).log(System.Logger.Level.WARNING,
                        "stopping " + container.getDockerImageName() + " failed", e);
            }
        }
    }
}
