package io.stowage.cli.client;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * JSON over HTTP to the services, with Jackson from {@link EventCodec#mapper()}; every request carries the CLI's
 * bearer token ({@link BearerToken}) when one is set. A 401 or 403 is a {@link CliException} with exit 4
 * ({@link CliException#UNAUTHORISED}) in every command, a release included, with the service's reason.
 */
public final class HttpJson {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final java.util.Optional<String> token;

    /** Presents the CLI's token as {@link BearerToken#resolve()} finds it. */
    public HttpJson() {
        this(BearerToken.resolve());
    }

    /** @param token the bearer token every request carries, or empty for none (the services then answer 401) */
    public HttpJson(Optional<String> token) {
        this.token = token;
    }

    /**
     * GETs {@code uri} and decodes the body.
     *
     * @return empty on 404
     * @throws CliException when the service is unreachable or answers another error
     */
    public <T> Optional<T> get(URI uri, Class<T> type) {
        return get(uri, EventCodec.mapper().constructType(type));
    }

    /** Like {@link #get(URI, Class)} for a generic type such as {@code List<ObjectEvidence>}; empty on 404. */
    public <T> Optional<T> get(URI uri, JavaType type) {
        HttpResponse<byte[]> response = send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build());
        refuseUnauthorised(uri, response);
        if (response.statusCode() == 404) {
            return Optional.empty();
        }
        return Optional.of(decode(uri, response, type));
    }

    /**
     * POSTs {@code body} as JSON.
     *
     * @throws CliException with the service's {@code error} field on a 4xx (exit 2) or 5xx (exit 1)
     */
    public <T> T post(URI uri, Object body, Class<T> type, Duration timeout) {
        try {
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(EventCodec.mapper().writeValueAsBytes(body))).build();
            return decode(uri, send(request), EventCodec.mapper().constructType(type));
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot encode request to " + uri + ": " + e.getMessage(), e);
        }
    }

    /** PUTs {@code body} as JSON; errors as {@link #post}. */
    <T> T put(URI uri, Object body, Class<T> type, Duration timeout) {
        try {
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(EventCodec.mapper().writeValueAsBytes(body))).build();
            return decode(uri, send(request), EventCodec.mapper().constructType(type));
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot encode request to " + uri + ": " + e.getMessage(), e);
        }
    }

    private HttpResponse<byte[]> send(HttpRequest request) {
        if (token.isPresent()) {
            request = HttpRequest.newBuilder(request, (name, value) -> true).header("Authorization", "Bearer " + token.get())
                    .build();
        }
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot reach " + request.uri().getHost() + ":"
                    + request.uri().getPort() + " (" + e.getClass().getSimpleName() + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(CliException.FAILED, "interrupted");
        }
    }

    /**
     * @throws CliException exit 4 on 401 (no, malformed, unknown, revoked or expired token) or 403 (the token's role is
     *                      too low), in every command (a release included), one line naming the endpoint, the status,
     *                      the service's reason (the body's {@code reason}) and what to do; never the token
     */
    public static void refuseUnauthorised(URI uri, HttpResponse<?> response) {
        int status = response.statusCode();
        if (status != 401 && status != 403) {
            return;
        }
        String reason = reasonOf(response.body());
        if (status == 403) {
            throw new CliException(CliException.UNAUTHORISED, uri.getPath() + " refused: this needs an operator token, and"
                    + " the token given has a lower role (403" + (reason != null ? ": " + reason : "") + ")");
        }
        throw new CliException(CliException.UNAUTHORISED, uri.getPath() + " refused: " + explain(reason));
    }

    /** @return what a 401 reason means to the user and what to do, ending with the status and the reason code */
    static String explain(String reason) {
        String setToken = "set STOWAGE_TOKEN or STOWAGE_TOKEN_FILE; stowage up writes $STOWAGE_HOME/tokens/operator.token"
                + " and reader.token";
        return switch (reason == null ? "" : reason) {
            case "missing-token" -> "no bearer token was sent (401 missing-token; " + setToken + ")";
            case "malformed-header" -> "the Authorization header is not 'Bearer <token>' (401 malformed-header)";
            case "expired-token" -> "the token has expired (401 expired-token; stowage token create makes a new one)";
            case "tokens-file-invalid" -> "the service's tokens file is unreadable or malformed, so it refuses every token"
                    + " from it until the file is fixed; its log names the line (401 tokens-file-invalid)";
            case "unknown-token" -> "no or unknown bearer token (401 unknown-token, never added or revoked; " + setToken + ")";
            default -> "no or unknown bearer token (401; " + setToken + ")";
        };
    }

    /** @return the {@code reason} of a refusal's JSON body ({@code byte[]} or {@code String}), or null */
    private static String reasonOf(Object body) {
        try {
            var node = body instanceof byte[] bytes ? EventCodec.mapper().readTree(bytes)
                    : body instanceof String text ? EventCodec.mapper().readTree(text) : null;
            String reason = node != null && node.hasNonNull("reason") ? node.get("reason").asText() : null;
            return reason == null || reason.isBlank() ? null : reason.replaceAll("[\\p{Cntrl}]", " ").strip();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private <T> T decode(URI uri, HttpResponse<byte[]> response, JavaType type) {
        refuseUnauthorised(uri, response);
        if (response.statusCode() >= 400) {
            String error = errorOf(response.body());
            int code = response.statusCode() < 500 ? CliException.USAGE : CliException.FAILED;
            throw new CliException(code, error != null ? error : uri.getPath() + " answered HTTP " + response.statusCode());
        }
        try {
            return read(response.body(), type);
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "unexpected answer from " + uri + ": " + e.getMessage(), e);
        }
    }

    /**
     * Decodes an answer; a JSON tree keeps decimal numbers as BigDecimal (money from the provider-adapter stays
     * {@code 0.000067} when printed again, never {@code 6.7E-5}); typed fields convert as usual.
     *
     * @throws IOException when the body is not JSON of that shape
     */
    public static <T> T read(byte[] body, JavaType type) throws IOException {
        return EventCodec.mapper().reader(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).forType(type).readValue(body);
    }

    private static String errorOf(byte[] body) {
        try {
            var node = EventCodec.mapper().readTree(body);
            return node != null && node.hasNonNull("error") ? node.get("error").asText() : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
