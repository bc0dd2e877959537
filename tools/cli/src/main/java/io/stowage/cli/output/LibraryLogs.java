package io.stowage.cli.output;

import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Keeps the log records of libraries from breaking the CLI's own progress lines on standard error. Records of
 * {@code java.util.logging} (and of {@code System.Logger}, which it backs: the embedded stack's
 * {@code io.stowage.stack.EmbeddedStack}) reach standard error from {@link #THRESHOLD} up, one line each, as
 * {@code WARNING io.stowage.stack.EmbeddedStack: stopping PostgresServer failed (java.io.IOException: reason)};
 * INFO records ("Kafka ready at … after … ms") stay out of a normal run, since the CLI prints its own step for each.
 * The slf4j-simple side (Kafka client, embedded PostgreSQL) is configured the same way in
 * {@code simplelogger.properties}: from WARN up, one line each.
 */
public final class LibraryLogs {
    /** The lowest {@code java.util.logging} level that reaches standard error. */
    public static final Level THRESHOLD = Level.WARNING;

    private LibraryLogs() {
    }

    /**
     * Replaces the handlers of the root logger with one console handler on the current {@code System.err} that
     * writes {@link OneLine} records from {@link #THRESHOLD} up. Call it once, before the first library logs
     * ({@code StowageCli.main} does); a later call replaces the handler again.
     */
    public static void configure() {
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        ConsoleHandler console = new ConsoleHandler(); // close() only flushes: System.err stays open for shutdown hooks
        console.setFormatter(new OneLine());
        console.setLevel(THRESHOLD);
        root.addHandler(console);
        root.setLevel(THRESHOLD);
    }

    /**
     * One record, one line: {@code <LEVEL> <logger>: <message>}, parameters filled in, line breaks of the message
     * turned into spaces, and a thrown exception as {@code (<class>: <message>)} instead of a stack trace.
     */
    public static final class OneLine extends Formatter {
        @Override
        public String format(LogRecord record) {
            StringBuilder line = new StringBuilder(record.getLevel().getName()).append(' ')
                    .append(record.getLoggerName()).append(": ").append(formatMessage(record));
            if (record.getThrown() != null) {
                line.append(" (").append(record.getThrown()).append(')');
            }
            return line.toString().replaceAll("\\R", " ") + System.lineSeparator();
        }
    }
}
