package io.stowage.store.s3;

import io.stowage.store.StoreAccessException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One HeadBucket request that tells a usable store from the three start-up mistakes: an endpoint
 * that does not answer, a bucket that does not exist, and credentials the store refuses.
 */
final class AccessProbe {
    private static final long TIMEOUT_SECONDS = 15;
    private final S3AsyncClient client;
    private final String name;
    private final String endpoint;
    private final String bucket;

    AccessProbe(S3AsyncClient client, String name, String endpoint, String bucket) {
        this.client = client;
        this.name = name;
        this.endpoint = endpoint;
        this.bucket = bucket;
    }

    /** @throws StoreAccessException with a one-line reason when the store is not usable */
    void run() {
        String where = "store " + name + " (" + endpoint + ", bucket " + bucket + ")";
        try {
            client.headBucket(b -> b.bucket(bucket)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new StoreAccessException(where + ": no answer within " + TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreAccessException(where + ": interrupted while probing", e);
        } catch (Exception e) {
            throw new StoreAccessException(where + ": " + reason(e), e);
        }
    }

    private static String reason(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof java.util.concurrent.ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof S3Exception e) {
            return switch (e.statusCode()) {
                case 404 -> "bucket does not exist (HTTP 404)";
                case 401, 403 -> "credentials refused (HTTP " + e.statusCode() + ")";
                default -> "HTTP " + e.statusCode() + " from HeadBucket";
            };
        }
        if (cause instanceof SdkClientException) {
            Throwable root = cause;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            String detail = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
            return "endpoint unreachable (" + detail.lines().findFirst().orElse("") + ")";
        }
        return String.valueOf(cause.getMessage()).lines().findFirst().orElse("");
    }
}
