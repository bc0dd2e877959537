package io.stowage.cli.output;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/** Library log records on the CLI's standard error: one line each, from WARNING up (JUL) and WARN up (slf4j-simple). */
class LibraryLogsTest {

    @Test
    void theEmbeddedStacksRecordsAreOneLineFromWarningUpAndItsInfoStaysOut() {
        // EmbeddedStack logs through System.Logger, which is java.util.logging in the CLI's runtime (no LoggerFinder
        // in target/lib); here JUL is called directly, since this test class path also holds jboss-logmanager
        // (through service-auth's Quarkus), whose LoggerFinder would take System.Logger over.
        String err = capturedWhileConfigured(() -> {
            Logger stack = Logger.getLogger("io.stowage.stack.EmbeddedStack");
            stack.log(Level.INFO, "{0} ready at {1} after {2,number,#} ms", new Object[] {"Kafka", "127.0.0.1:40379", 33112});
            stack.log(Level.WARNING, "a stack port was taken before its server bound it; starting again");
            stack.log(Level.WARNING, "stopping PostgresServer failed",
                    new IOException("pg_ctl exited with 1\nsecond line of the reason"));
        });

        assertThat(err.lines()).containsExactly(
                "WARNING io.stowage.stack.EmbeddedStack: a stack port was taken before its server bound it; starting again",
                "WARNING io.stowage.stack.EmbeddedStack: stopping PostgresServer failed"
                        + " (java.io.IOException: pg_ctl exited with 1 second line of the reason)");
    }

    @Test
    void theKafkaClientLogsFromWarnAndItsNetworkClientOnlyErrors() {
        // simplelogger.properties of the CLI, as the packaged jar carries it
        assertThat(LoggerFactory.getLogger("org.apache.kafka.clients.producer.KafkaProducer").isInfoEnabled()).isFalse();
        assertThat(LoggerFactory.getLogger("org.apache.kafka.clients.producer.KafkaProducer").isWarnEnabled()).isTrue();
        assertThat(LoggerFactory.getLogger("io.zonky.test.db.postgres.embedded.EmbeddedPostgres").isInfoEnabled()).isFalse();
        assertThat(LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient").isWarnEnabled()).isFalse();
        assertThat(LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient").isErrorEnabled()).isTrue();
    }

    /** Runs {@code logging} with the CLI's JUL configuration on a captured standard error, then restores both. */
    private static String capturedWhileConfigured(Runnable logging) {
        Logger root = Logger.getLogger("");
        Handler[] handlers = root.getHandlers();
        Level level = root.getLevel();
        PrintStream original = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            LibraryLogs.configure();
            logging.run();
            for (Handler handler : root.getHandlers()) {
                handler.flush();
            }
        } finally {
            for (Handler handler : root.getHandlers()) {
                root.removeHandler(handler);
            }
            for (Handler handler : handlers) {
                root.addHandler(handler);
            }
            root.setLevel(level);
            System.setErr(original);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
