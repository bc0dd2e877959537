package io.stowage.console.web;

import jakarta.ws.rs.ProcessingException;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.net.SocketTimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/** A service that cannot be reached is named by what happened and where, never by a class name. */
class UnreachableLineTest {
    /** Not a timeout, though its name says "Timeout". */
    private static final class TimeoutSettingsInvalid extends RuntimeException {
        TimeoutSettingsInvalid(String message) {
            super(message);
        }
    }

    /** As the REST client wraps Netty's refusal: the cause's class name leads the wrapper's message. */
    private static ProcessingException wrapped(Throwable cause) {
        return new ProcessingException(cause.getClass().getName() + ": " + cause.getMessage(), cause);
    }

    @Test
    void aRefusedConnectionNamesTheAddressAndSaysToTryAgain() {
        String line = Failures.unreachableLine(wrapped(new ConnectException("Connection refused: /127.0.0.1:24437")));
        assertThat(line).isEqualTo("a service cannot be reached: connection refused at 127.0.0.1:24437 (it is stopped,"
                + " restarting, or a standby is taking over); try again in a few seconds");
    }

    @Test
    void aTimeoutAndAnyOtherFailureSayWhatHappenedWithoutAClassName() {
        String timeout = Failures.unreachableLine(wrapped(new SocketTimeoutException("Read timed out")));
        assertThat(timeout).isEqualTo("a service did not answer in time");
        String reset = Failures.unreachableLine(new ProcessingException(
                "io.vertx.core.VertxException: Connection was closed", new RuntimeException("Connection was closed")));
        assertThat(reset).isEqualTo("a service cannot be reached: the connection failed before an answer came");
        String named = Failures.unreachableLine(wrapped(new java.io.IOException("cannot reach http://ledger:8080/api")));
        assertThat(named).contains("at ledger:8080");
        for (String line : new String[] {timeout, reset, named}) {
            assertThat(line).doesNotContain("Exception").doesNotContain("io.").doesNotContain("java.");
        }
    }

    @Test
    void aTimeoutIsKnownByItsTypeAsTheClientsThrowIt() {
        // Vert.x's request timeout, Netty's read timeout, and Netty's connect timeout (a ConnectException too)
        String vertx = Failures.unreachableLine(wrapped(new io.vertx.core.impl.NoStackTraceTimeoutException(
                "The timeout period of 30000ms has been exceeded while executing GET /api/alerts for server 10.0.0.7:8081")));
        assertThat(vertx).isEqualTo("a service did not answer in time at 10.0.0.7:8081");
        String read = Failures.unreachableLine(wrapped(io.netty.handler.timeout.ReadTimeoutException.INSTANCE));
        assertThat(read).isEqualTo("a service did not answer in time");
        String connect = Failures.unreachableLine(wrapped(new io.netty.channel.ConnectTimeoutException(
                "connection timed out after 5000 ms: /127.0.0.1:24437")));
        assertThat(connect).isEqualTo("a service did not answer in time at 127.0.0.1:24437");
        // a failure whose class merely has "Timeout" in its name is not a timeout
        String settings = Failures.unreachableLine(wrapped(new TimeoutSettingsInvalid("bad value in ledger.timeout")));
        assertThat(settings).isEqualTo("a service cannot be reached: the connection failed before an answer came");
        for (String line : new String[] {vertx, read, connect, settings}) {
            assertThat(line).doesNotContain("Exception").doesNotContain("io.").doesNotContain("java.");
        }
    }
}
