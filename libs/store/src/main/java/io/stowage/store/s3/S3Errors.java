package io.stowage.store.s3;

import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.PermanentStoreException;
import io.stowage.store.StoreException;
import io.stowage.store.TransientStoreException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Maps what the AWS SDK throws to the store's three outcomes: not found, transient, permanent. */
final class S3Errors {
    private S3Errors() {
    }

    /**
     * @param what a short description of the call, e.g. "HEAD stowage-primary/datasets/..."
     * @return the exception to throw; a {@link StoreException} or unchecked exception passes through unchanged
     */
    static RuntimeException translate(Throwable failure, String bucket, String key, String what) {
        Throwable cause = unwrap(failure);
        if (cause instanceof StoreException e) {
            return e;
        }
        if (cause instanceof S3Exception e) {
            String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
            if (e.statusCode() == 404 && !"NoSuchBucket".equals(code) && !"NoSuchUpload".equals(code)) {
                return new ObjectNotFoundException(bucket, key);
            }
            String message = what + ": HTTP " + e.statusCode() + (code == null ? "" : " " + code);
            if (e.statusCode() == 412 || (e.statusCode() == 409 && "ConditionalRequestConflict".equals(code))) {
                return new io.stowage.store.PreconditionFailedException(message, e);
            }
            if (e.statusCode() >= 500 || e.statusCode() == 429 || e.statusCode() == 408) {
                return new TransientStoreException(message, e);
            }
            return new PermanentStoreException(message, e);
        }
        if (cause instanceof SdkClientException || cause instanceof IOException) {
            return new TransientStoreException(what + ": " + cause.getMessage(), cause);
        }
        if (cause instanceof RuntimeException e) {
            return e;
        }
        return new PermanentStoreException(what + ": " + cause, cause);
    }

    /** @return the HTTP status the store answered with, or -1 when the failure is not the store's answer */
    static int status(Throwable failure) {
        return unwrap(failure) instanceof S3Exception e ? e.statusCode() : -1;
    }

    /**
     * @return the S3 error code of the store's answer (e.g. {@code NotImplemented}, {@code PreconditionFailed}), or
     *         null when the failure is not the store's answer or the answer had no error body
     */
    static String code(Throwable failure) {
        return unwrap(failure) instanceof S3Exception e && e.awsErrorDetails() != null
                ? e.awsErrorDetails().errorCode() : null;
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** @return the ETag without its surrounding quotes, or null */
    static String stripQuotes(String etag) {
        return etag == null ? null : etag.replace("\"", "");
    }
}
