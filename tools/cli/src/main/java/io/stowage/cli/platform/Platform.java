package io.stowage.cli.platform;

import io.stowage.cli.CliException;
import io.stowage.cli.Repo;
import io.stowage.cli.output.Progress;
import io.stowage.stack.EmbeddedStack;
import io.stowage.stack.KafkaAclTable;
import io.stowage.stack.KafkaSecurity;
import io.stowage.stack.StackCredentials;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A running Stowage on this machine: the embedded stack (real Kafka, S3Proxy, PostgreSQL on
 * loopback) plus the six services as child processes, each service and each server started again when it ends
 * (supervision, {@code services.json}). Used by {@code stowage up} and {@code stowage demo}; {@link #close()} stops
 * the services first, then the servers.
 */
public final class Platform implements AutoCloseable {
    private final EmbeddedStack stack;
    private final ServiceLauncher services;
    private final Session session;

    private Platform(EmbeddedStack stack, ServiceLauncher services, Session session) {
        this.stack = stack;
        this.services = services;
        this.session = session;
    }

    /**
     * Starts everything under {@code work} ({@code stack/}, {@code logs/}, {@code staging/}).
     *
     * @param protectedRoots directories the gate must never release
     * @param volumeRoots    volumes whose directories the gate may release (none: every release is denied)
     * @throws IOException   when a server cannot start
     * @throws CliException  when a service cannot start
     */
    public static Platform start(Path work, List<Path> protectedRoots, List<Path> volumeRoots, Progress progress)
            throws IOException {
        return start(work, protectedRoots, volumeRoots, progress, StackCredentials.random(), null);
    }

    /**
     * Like {@link #start(Path, List, List, Progress)} with given secrets instead of random ones: the secrets canary
     * test starts everything with recognisable values and then searches logs, topics, rows and objects for them.
     *
     * @param credentials the stack's S3 identity and database password
     * @param signingKey  the gate signing key (at least 32 bytes), or null for a random one
     */
    public static Platform start(Path work, List<Path> protectedRoots, List<Path> volumeRoots, Progress progress,
                                 StackCredentials credentials, String signingKey) throws IOException {
        return start(work, protectedRoots, volumeRoots, progress, credentials, signingKey, java.util.Map.of());
    }

    /**
     * Like {@link #start(Path, List, List, Progress, StackCredentials, String)} with several instances of some services
     * ({@link ServiceLauncher#start(Path, io.stowage.stack.StackEndpoints, Path, List, List, Path, String, KafkaSecurity,
     * java.util.Map)}).
     *
     * @param instances service name to number of instances; checked before anything starts
     * @throws CliException (exit 2) when a service may not run as several instances
     */
    public static Platform start(Path work, List<Path> protectedRoots, List<Path> volumeRoots, Progress progress,
                                 StackCredentials credentials, String signingKey, java.util.Map<String, Integer> instances)
            throws IOException {
        ServiceLauncher.requireInstances(instances);
        progress.step("starting Kafka (KRaft, SCRAM users and the ACLs of " + KafkaAclTable.FILE + "), S3Proxy and PostgreSQL on loopback");
        // one SCRAM user per principal of the table compose uses, passwords new for this session
        KafkaSecurity kafka = KafkaSecurity.generate(KafkaAclTable.read(Repo.root().resolve(KafkaAclTable.FILE)));
        EmbeddedStack stack = EmbeddedStack.start(work.resolve("stack"), credentials, kafka);
        try {
            progress.step("starting the six services (shard-builder, uploader, verifier, ledger, gatekeeper, provider-adapter)");
            Path staging = work.resolve("staging");
            ServiceLauncher services = ServiceLauncher.start(Repo.root(), stack.endpoints(), work.resolve("logs"),
                    protectedRoots, volumeRoots, staging, signingKey, kafka, instances);
            services.supervise(stack);
            Session session = new Session(stack.endpoints(), services.urls(), staging.toString(),
                    protectedRoots.stream().map(Path::toString).toList(), ProcessHandle.current().pid(),
                    stack.kafkaClient("operator"));
            return new Platform(stack, services, session);
        } catch (IOException | RuntimeException e) {
            stack.close();
            throw e;
        }
    }

    /**
     * Stops one service, runs {@code stopped}, and starts the service again as before (see
     * {@link ServiceLauncher#restart}); for end-to-end tests.
     */
    public void restart(String service, Runnable stopped) throws IOException {
        services.restart(service, stopped);
    }

    /** @return the process id of service {@code name} as it runs now; a restart by supervision changes it */
    public long pid(String service) {
        return services.pid(service);
    }

    /** @return each service's process, restarts and last restart, as supervision keeps them in {@code services.json} */
    public SupervisionState supervision() {
        return services.supervision();
    }

    /**
     * @param principal a principal of the Kafka ACL table, e.g. {@code uploader}
     * @return client settings logging in as it; for end-to-end tests (a forgery attempt with another service's login)
     */
    public java.util.Map<String, String> kafkaClient(String principal) {
        return stack.kafkaClient(principal);
    }

    /**
     * @param principal a principal of the Kafka ACL table
     * @return the environment a service logs in with as it ({@code KAFKA_SECURITY_PROTOCOL}, ...); for end-to-end tests
     *         that start a service of their own
     */
    public java.util.Map<String, String> kafkaEnvironment(String principal) {
        return stack.kafkaSecurity().environment(principal);
    }

    /** @return client settings of the broker's super user; for end-to-end tests that read every topic */
    public java.util.Map<String, String> kafkaSuperUser() {
        return stack.kafkaSuperUser();
    }

    /** @return how to reach this platform */
    public Session session() {
        return session;
    }

    @Override
    public void close() {
        services.close();
        stack.close();
    }
}
