package io.stowage.cli.platform;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;
import io.stowage.stack.StackEndpoints;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * Everything a command needs to reach a running Stowage: the servers of the stack, the base URLs
 * of the six services, and the staging directory. Written by {@code stowage up} (and the demo) to
 * {@code $STOWAGE_HOME/session.json} with owner-only permissions, since it holds credentials.
 *
 * @param stack          where Kafka, the S3-compatible store and PostgreSQL listen
 * @param services       service name (e.g. "ledger") to base URL (e.g. http://127.0.0.1:41234)
 * @param stagingDir     absolute directory for shards and checkpoint manifests
 * @param protectedRoots directories the gate never releases (the CLI refuses them before asking)
 * @param ownerPid       process id of the {@code stowage up} that owns the session
 * @param kafkaLogin     the CLI's own Kafka client settings (bootstrap, SASL/SCRAM as the ACL table's {@code operator},
 *                       password generated per session), or null for a broker without authentication
 */
public record Session(StackEndpoints stack, Map<String, String> services, String stagingDir,
                      java.util.List<String> protectedRoots, long ownerPid, Map<String, String> kafkaLogin) {

    /** A session whose broker needs no login (the tests' shared PLAINTEXT stack). */
    public Session(StackEndpoints stack, Map<String, String> services, String stagingDir,
                   java.util.List<String> protectedRoots, long ownerPid) {
        this(stack, services, stagingDir, protectedRoots, ownerPid, null);
    }

    /** @return the settings a CLI Kafka client uses: {@link #kafkaLogin()}, or only the bootstrap servers when there is none */
    public Map<String, String> kafkaClient() {
        return kafkaLogin != null ? kafkaLogin : Map.of("bootstrap.servers", stack.kafkaBootstrapServers());
    }

    /** @return true while the owning {@code stowage up} process is alive */
    public boolean alive() {
        return ProcessHandle.of(ownerPid).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * @return the base URL of service {@code name}: of its first instance ({@code name}, {@code name-2}, …) that accepts
     *         a TCP connection within 300 ms, so that a command reaches the active provider-adapter when instance 1 is a
     *         standby (which does not listen); instance 1's when none accepts (the caller's request then fails naming it)
     * @throws CliException when the session has no such service
     */
    public URI serviceUrl(String name) {
        String url = services.get(name);
        if (url == null) {
            throw new CliException(CliException.FAILED, "no " + name + " service in this session");
        }
        if (!services.containsKey(name + "-2")) {
            return URI.create(url);
        }
        // an instance that does not listen is a standby, stopped or restarting: try the next one
        for (int n = 1; services.containsKey(ServiceLauncher.instanceName(name, n)); n++) {
            URI candidate = URI.create(services.get(ServiceLauncher.instanceName(name, n)));
            if (ServiceHealth.connects(candidate.getAuthority(), java.time.Duration.ofMillis(300))) {
                return candidate;
            }
        }
        return URI.create(url);
    }

    /** Writes this session as JSON, readable by the owner only. */
    public void writeTo(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        mapper().writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), this);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Reads the session of a running {@code stowage up}.
     *
     * @throws CliException when there is none: the message says to start {@code stowage up}
     */
    public static Session readFrom(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new CliException(CliException.FAILED, "Stowage is not running: no " + file
                    + " (start it with 'stowage up' in another terminal)");
        }
        Session session;
        try {
            session = mapper().readValue(file.toFile(), Session.class);
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot read " + file + ": " + e.getMessage(), e);
        }
        if (!session.alive()) {
            throw new CliException(CliException.FAILED, "Stowage is not running: " + file + " is left from 'stowage up' (pid "
                    + session.ownerPid() + "), which has ended; start it again with 'stowage up'");
        }
        return session;
    }

    private static ObjectMapper mapper() {
        return EventCodec.mapper();
    }
}
