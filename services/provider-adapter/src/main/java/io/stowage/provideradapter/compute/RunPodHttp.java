package io.stowage.provideradapter.compute;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.events.EventCodec;
import io.stowage.provideradapter.domain.resource.ProviderException;
import io.stowage.provideradapter.domain.resource.RetryPolicy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Sends one call to RunPod's REST API ({@code https://rest.runpod.io/v1}) with {@code Authorization: Bearer <key>}
 * and JSON bodies, retrying 5xx, 429 (honouring {@code Retry-After}) and I/O errors by the {@link RetryPolicy}.
 * Answers the parsed JSON body (a {@code MissingNode} for an empty body), empty for a 404, and throws
 * {@link ProviderException} for any other 4xx (permanent) or when the retries run out. The key is never part of a
 * message or log line.
 */
final class RunPodHttp {
    private static final System.Logger LOG = System.getLogger(RunPodHttp.class.getName());

    /** Waits between attempts; tests pass a recorder instead of sleeping. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    private final URI baseUrl;
    private final RunPodApiKey key;
    private final RetryPolicy retry;
    private final Sleeper sleeper;
    private final Clock clock;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    RunPodHttp(URI baseUrl, RunPodApiKey key, RetryPolicy retry, Sleeper sleeper, Clock clock) {
        this.baseUrl = URI.create(baseUrl.toString().endsWith("/") ? baseUrl.toString() : baseUrl + "/");
        this.key = key;
        this.retry = retry;
        this.sleeper = sleeper;
        this.clock = clock;
    }

    /**
     * @param method "GET", "POST", "PATCH" or "DELETE"
     * @param path   relative to the base URL, e.g. "networkvolumes/abc"
     * @param body   the JSON body, null for none
     * @return the answer's JSON, empty when RunPod answered 404
     * @throws ProviderException for a 4xx other than 404 and 429 (permanent), or when retries run out
     */
    Optional<JsonNode> call(String method, String path, JsonNode body) {
        return call(method, path, body, Optional::empty);
    }

    /**
     * As {@link #call(String, String, JsonNode)}, but before repeating a call that failed with a 5xx or an I/O
     * error (it may have been carried out) asks {@code alreadyDone} whether it was; a present answer is returned
     * instead of repeating. This keeps a retried POST from creating a second volume or pod.
     */
    Optional<JsonNode> call(String method, String path, JsonNode body, Supplier<Optional<JsonNode>> alreadyDone) {
        boolean lastStatusMayHaveActed = false;
        for (int attempt = 1; ; attempt++) {
            if (attempt > 1 && lastStatusMayHaveActed) {
                Optional<JsonNode> done = alreadyDone.get();
                if (done.isPresent()) {
                    return done;
                }
            }
            int status;
            String retryAfter = null;
            String reason;
            try {
                HttpResponse<String> response = client.send(request(method, path, body),
                        HttpResponse.BodyHandlers.ofString());
                status = response.statusCode();
                if (status >= 200 && status < 300) {
                    return Optional.of(response.body() == null || response.body().isBlank()
                            ? EventCodec.mapper().missingNode() : EventCodec.mapper().readTree(response.body()));
                }
                if (status == 404) {
                    return Optional.empty();
                }
                retryAfter = response.headers().firstValue("Retry-After").orElse(null);
                reason = errorText(response.body());
            } catch (IOException e) {
                status = 0;
                reason = "I/O error: " + e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ProviderException(0, false, method + " " + path + " interrupted");
            }
            lastStatusMayHaveActed = status != 429;
            Optional<Duration> wait = retry.next(attempt, status, retryAfter, clock.instant());
            if (wait.isEmpty()) {
                boolean permanent = !RetryPolicy.transientStatus(status);
                throw new ProviderException(status, permanent, "RunPod " + method + " /" + path + " answered "
                        + (status == 0 ? "no response" : "HTTP " + status) + (permanent ? "" : " after " + attempt
                        + " attempt(s)") + ": " + reason);
            }
            LOG.log(System.Logger.Level.WARNING, "RunPod {0} /{1} answered {2}; attempt {3} of {4} in {5} ms", method,
                    path, status, attempt + 1, retry.maxAttempts(), wait.get().toMillis());
            try {
                sleeper.sleep(wait.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ProviderException(status, false, method + " " + path + " interrupted while waiting to retry");
            }
        }
    }

    private HttpRequest request(String method, String path, JsonNode body) throws IOException {
        HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(EventCodec.mapper().writeValueAsBytes(body));
        return HttpRequest.newBuilder(baseUrl.resolve(path))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + key.value())
                .header("Accept", "application/json")
                .header("Content-Type", "application/json")
                .method(method, publisher)
                .build();
    }

    // RunPod answers errors as {"error": "..."} (v1) or {"message": "..."}; anything else is shown cut to one line
    private static String errorText(String body) {
        if (body == null || body.isBlank()) {
            return "(empty body)";
        }
        try {
            JsonNode node = EventCodec.mapper().readTree(body);
            for (String field : new String[]{"error", "message", "detail"}) {
                if (node.hasNonNull(field)) {
                    return oneLine(node.get(field).isTextual() ? node.get(field).asText() : node.get(field).toString());
                }
            }
        } catch (IOException notJson) {
            // fall through to the raw text
        }
        return oneLine(body);
    }

    private static String oneLine(String text) {
        String line = text.replaceAll("[\\r\\n]+", " ");
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }
}
