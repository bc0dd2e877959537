package io.stowage.console.client;

import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A call moves to the next instance only when the connection is refused (the request reached no server), stays with the
 * instance that answered last, and otherwise fails as the instance failed: never sent twice.
 */
class FailoverClientTest {
    /** A one-method API; each instance answers its URL, refuses, or fails in another way. */
    interface Api {
        String call(String body);
    }

    private final Map<String, String> behaviour = new HashMap<>();
    private final List<String> sent = new ArrayList<>();

    private Api instance(String url) {
        return body -> {
            sent.add(url);
            return switch (behaviour.getOrDefault(url, "answer")) {
                case "refuse" -> throw new ProcessingException(new ConnectException("Connection refused: " + url));
                case "timeout" -> throw new ProcessingException(new SocketTimeoutException("read timed out"));
                case "500" -> throw new WebApplicationException(500);
                default -> url + ":" + body;
            };
        };
    }

    @Test
    void aRefusedCallMovesOnAndTheNextCallStartsAtTheInstanceThatAnswered() {
        Api api = FailoverClient.of(Api.class, List.of("http://a", " http://b", "http://c"), this::instance);
        behaviour.put("http://a", "refuse");
        assertThat(api.call("1")).isEqualTo("http://b:1");
        assertThat(sent).containsExactly("http://a", "http://b");
        sent.clear();
        assertThat(api.call("2")).as("the instance that answered last is tried first").isEqualTo("http://b:2");
        assertThat(sent).containsExactly("http://b");
        sent.clear();
        behaviour.put("http://b", "refuse");
        behaviour.remove("http://a");
        assertThat(api.call("3")).as("wrapping round past the last instance").isEqualTo("http://c:3");
        assertThat(sent).containsExactly("http://b", "http://c");
    }

    @Test
    void anyOtherFailureIsTheCallsOwnAndIsNotSentAgain() {
        Api api = FailoverClient.of(Api.class, List.of("http://a", "http://b"), this::instance);
        behaviour.put("http://a", "timeout");
        assertThatThrownBy(() -> api.call("1")).isInstanceOf(ProcessingException.class)
                .hasCauseInstanceOf(SocketTimeoutException.class);
        behaviour.put("http://a", "500");
        assertThatThrownBy(() -> api.call("2")).isInstanceOf(WebApplicationException.class);
        assertThat(sent).as("a request that may have reached a server is never sent to another")
                .containsExactly("http://a", "http://a");
    }

    @Test
    void whenEveryInstanceRefusesTheLastRefusalIsThrown() {
        Api api = FailoverClient.of(Api.class, List.of("http://a", "http://b"), this::instance);
        behaviour.put("http://a", "refuse");
        behaviour.put("http://b", "refuse");
        assertThatThrownBy(() -> api.call("1")).isInstanceOf(ProcessingException.class)
                .hasMessageContaining("http://b");
        assertThat(sent).containsExactly("http://a", "http://b");
        assertThatThrownBy(() -> FailoverClient.of(Api.class, List.of(), this::instance))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Api");
    }

    @Test
    void aRefusalIsFoundAnywhereInTheCauses() {
        assertThat(FailoverClient.refused(new ProcessingException(new RuntimeException(new ConnectException("x"))))).isTrue();
        assertThat(FailoverClient.refused(new ProcessingException("closed"))).isFalse();
    }
}
