package io.stowage.store.s3;

import io.stowage.store.PutResult;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CompletedPart;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * One multipart upload of a local file: parts are read and hashed in order, sent a few at a time,
 * and the upload is completed only when the digest of everything sent equals the expected
 * SHA-256; on any failure (changed file, store error) the upload is aborted, so no object appears.
 */
final class MultipartPut {
    private final S3AsyncClient client;
    private final String bucket;
    private final UploadTuning tuning;

    MultipartPut(S3AsyncClient client, String bucket, UploadTuning tuning) {
        this.client = client;
        this.bucket = bucket;
        this.tuning = tuning;
    }

    PutResult run(String key, HashingSource source, long bytes, Map<String, String> metadata) {
        String uploadId = client.createMultipartUpload(b -> b.bucket(bucket).key(key).metadata(metadata))
                .join().uploadId();
        List<CompletableFuture<CompletedPart>> parts = new ArrayList<>();
        try {
            sendParts(key, uploadId, source, parts);
            String sha256 = source.finish();
            List<CompletedPart> done = parts.stream().map(CompletableFuture::join).toList();
            String etag = client.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                    .multipartUpload(m -> m.parts(done))).join().eTag();
            return new PutResult(S3Errors.stripQuotes(etag), bytes, sha256, true);
        } catch (RuntimeException e) {
            abort(key, uploadId, parts);
            throw e;
        }
    }

    private void sendParts(String key, String uploadId, HashingSource source,
                           List<CompletableFuture<CompletedPart>> parts) {
        Semaphore window = new Semaphore(tuning.partsInFlight());
        for (int number = 1; source.remaining() > 0; number++) {
            byte[] part = source.next((int) Math.min(tuning.partSize(), source.remaining()));
            window.acquireUninterruptibly();
            failFast(parts);
            int partNumber = number;
            parts.add(client.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(partNumber)
                                    .contentLength((long) part.length), AsyncRequestBody.fromBytesUnsafe(part))
                    .thenApply(r -> CompletedPart.builder().partNumber(partNumber).eTag(r.eTag()).build())
                    .whenComplete((r, e) -> window.release()));
        }
    }

    private static void failFast(List<CompletableFuture<CompletedPart>> parts) {
        for (CompletableFuture<CompletedPart> part : parts) {
            if (part.isCompletedExceptionally()) {
                part.join();
            }
        }
    }

    private void abort(String key, String uploadId, List<CompletableFuture<CompletedPart>> parts) {
        try {
            // let parts in flight settle first, so none lands after the abort
            CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).handle((r, e) -> null)
                    .get(60, TimeUnit.SECONDS);
            client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)).join();
        } catch (Exception e) {
            // best effort: abortIncompleteUploads(key) cleans up what is left
        }
    }
}
