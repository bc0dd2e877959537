package io.stowage.stack;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * PostgreSQL 17 from the zonky embedded binaries, data under a work directory; produces the
 * {@code stowage} database owned by role {@code stowage}, whose password (random per start) is checked
 * on TCP connections, as a real server would. The check is {@code md5}, not SCRAM: the Vert.x reactive
 * client only speaks SCRAM when {@code com.ongres.scram:scram-client} is on its class path, md5 always.
 */
final class PostgresServer implements AutoCloseable {
    static final String DATABASE = "stowage";
    static final String USER = "stowage";

    private volatile EmbeddedPostgres postgres;
    private final String password;
    private final Path dir;

    private PostgresServer(EmbeddedPostgres postgres, String password, Path dir) {
        this.postgres = postgres;
        this.password = password;
        this.dir = dir;
    }

    /**
     * Starts PostgreSQL (data in {@code dir/data}, log in {@code dir/postgres.log}; existing data is kept)
     * and creates or updates the role and the database.
     *
     * @param password the role's password ({@link StackCredentials} checked its alphabet: it is inlined in SQL)
     * @throws IOException when the server does not start or the database cannot be created
     */
    static PostgresServer start(Path dir, String password) throws IOException {
        Files.createDirectories(dir);
        Path data = dir.resolve("data");
        EmbeddedPostgres postgres = launch(data, dir.resolve("postgres.log"), ChildProcess.freePort());
        try (Connection admin = postgres.getPostgresDatabase().getConnection()) {
            createRoleAndDatabase(admin, password);
        } catch (SQLException e) {
            postgres.close();
            throw new IOException("cannot create database " + DATABASE + ": " + e.getMessage(), e);
        }
        return new PostgresServer(postgres, password, dir);
    }

    /**
     * Starts the postmaster again on the same port and data directory once it has ended (killed): the data is kept,
     * PostgreSQL's crash recovery replays its WAL. Waits, up to {@code timeoutMillis}, for the backends of the killed
     * postmaster to leave its shared memory (a new postmaster refuses to start while they hold it).
     *
     * @throws IOException when it does not start within {@code timeoutMillis} (the message carries its log's end)
     */
    synchronized void restart(long timeoutMillis) throws IOException {
        int port = postgres.getPort();
        try {
            postgres.close(); // pg_ctl stop finds no server; this releases zonky's lock on the data directory
        } catch (IOException | RuntimeException e) {
            // the server is gone already
        }
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (true) {
            try {
                postgres = launch(dir.resolve("data"), dir.resolve("postgres.log"), port);
                return;
            } catch (IOException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(500);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while starting PostgreSQL again", interrupted);
                }
            }
        }
    }

    /**
     * @return the postmaster as it runs now, from the first line of {@code data/postmaster.pid} (it is no child of
     *         this JVM: {@code pg_ctl} starts it), or empty when the file is missing or names no running process
     */
    java.util.Optional<ProcessHandle> postmaster() {
        try {
            long pid = Long.parseLong(Files.readAllLines(dir.resolve("data/postmaster.pid")).get(0).strip());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }

    /** Starts the postmaster on {@code port}; a new cluster is copied from the template or, the first time, made by initdb. */
    private static EmbeddedPostgres launch(Path data, Path log, int port) throws IOException {
        boolean fresh = !Files.exists(data.resolve("postgresql.conf"));
        boolean fromTemplate = fresh && PostgresTemplate.copyInto(data);
        try {
            return EmbeddedPostgres.builder()
                    .setPort(port)
                    .setDataDirectory(data)
                    .setCleanDataDirectory(false)
                    .setRegisterShutdownHook(false)
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("password_encryption", "md5")
                    // zonky's builder sets synchronous_commit=off: a commit then returns before its WAL is flushed,
                    // and a SIGKILL of the postmaster loses the last commits. The ledger acks a batch (and Kafka
                    // commits its offsets) once its transaction committed, so those events were lost for good.
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("fsync", "on")
                    .setDataDirectoryCustomizer(cluster -> {
                        requirePasswords(cluster);
                        if (fresh && !fromTemplate) {
                            PostgresTemplate.saveFrom(cluster.toPath());
                        }
                    })
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException | RuntimeException e) {
            throw new IOException("PostgreSQL did not start: " + e.getMessage() + "; last lines of " + log + ":\n"
                    + ChildProcess.tail(log, 20), e);
        }
    }

    /** The superuser {@code postgres} (used by zonky and here) stays trusted on loopback; every other role needs its password. */
    private static void requirePasswords(File dataDir) {
        String hba = """
                local all all trust
                host all postgres 127.0.0.1/32 trust
                host all postgres ::1/128 trust
                host all all 127.0.0.1/32 md5
                host all all ::1/128 md5
                """;
        try {
            Files.writeString(dataDir.toPath().resolve("pg_hba.conf"), hba, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void createRoleAndDatabase(Connection admin, String password) throws SQLException {
        try (Statement sql = admin.createStatement()) {
            if (!exists(admin, "select 1 from pg_roles where rolname = ?", USER)) {
                sql.execute("create role " + USER + " login");
            }
            // the password's alphabet is checked by StackCredentials, so it can be inlined (ALTER ROLE takes no bind parameters)
            sql.execute("alter role " + USER + " password '" + password + "'");
            if (!exists(admin, "select 1 from pg_database where datname = ?", DATABASE)) {
                sql.execute("create database " + DATABASE + " owner " + USER);
            }
        }
    }

    private static boolean exists(Connection connection, String query, String name) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(query)) {
            statement.setString(1, name);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next();
            }
        }
    }

    int port() {
        return postgres.getPort();
    }

    String password() {
        return password;
    }

    /** Stops PostgreSQL (fast shutdown); idempotent as zonky's close is. */
    @Override
    public void close() throws IOException {
        postgres.close();
    }
}
