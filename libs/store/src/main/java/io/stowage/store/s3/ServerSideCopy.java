package io.stowage.store.s3;

import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.MetadataDirective;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Copies one object to another key of the same bucket inside the store, without downloading it: one CopyObject up to
 * {@code partCopyThreshold} bytes (S3 refuses a single copy above 5 GiB), above it a multipart upload whose parts are
 * UploadPartCopy ranges of {@code partSize} bytes. The copy gets the {@code sha256} user metadata (and the other
 * metadata given) anew, so it carries its content address like an uploaded object. A failed multipart copy is
 * aborted. Blocking: call it from a worker thread. The caller re-reads the copy to check its SHA-256.
 */
final class ServerSideCopy {
    private final S3AsyncClient client;
    private final String bucket;

    ServerSideCopy(S3AsyncClient client, String bucket) {
        this.client = client;
        this.bucket = bucket;
    }

    /**
     * @param bytes             the source object's size in bytes (from its HEAD)
     * @param metadata          user metadata for the copy, the {@code sha256} included
     * @param partCopyThreshold above this many bytes the copy goes in parts
     * @param partSize          bytes per UploadPartCopy (at least 5 MiB except the last, by S3's rules)
     * @return the parts used: 0 for a single CopyObject
     */
    int copy(String sourceKey, String targetKey, long bytes, Map<String, String> metadata, long partCopyThreshold,
             long partSize) {
        if (bytes <= partCopyThreshold) {
            client.copyObject(b -> b.sourceBucket(bucket).sourceKey(sourceKey).destinationBucket(bucket)
                    .destinationKey(targetKey).metadataDirective(MetadataDirective.REPLACE).metadata(metadata)).join();
            return 0;
        }
        String uploadId = client.createMultipartUpload(b -> b.bucket(bucket).key(targetKey).metadata(metadata))
                .join().uploadId();
        try {
            List<CompletedPart> parts = new ArrayList<>();
            for (long start = 0; start < bytes; start += partSize) {
                int number = parts.size() + 1;
                String range = "bytes=" + start + "-" + (Math.min(bytes, start + partSize) - 1);
                String etag = client.uploadPartCopy(b -> b.sourceBucket(bucket).sourceKey(sourceKey)
                        .destinationBucket(bucket).destinationKey(targetKey).uploadId(uploadId).partNumber(number)
                        .copySourceRange(range)).join().copyPartResult().eTag();
                parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
            }
            client.completeMultipartUpload(b -> b.bucket(bucket).key(targetKey).uploadId(uploadId)
                    .multipartUpload(m -> m.parts(parts))).join();
            return parts.size();
        } catch (RuntimeException e) {
            client.abortMultipartUpload(b -> b.bucket(bucket).key(targetKey).uploadId(uploadId)).exceptionally(x -> null).join();
            throw e;
        }
    }
}
