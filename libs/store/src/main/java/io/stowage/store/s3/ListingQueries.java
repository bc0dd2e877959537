package io.stowage.store.s3;

import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.util.ArrayList;
import java.util.List;

/** Paged listings of one bucket: object keys under a prefix, and incomplete multipart uploads of a key. */
final class ListingQueries {
    private final S3AsyncClient client;
    private final String bucket;

    ListingQueries(S3AsyncClient client, String bucket) {
        this.client = client;
        this.bucket = bucket;
    }

    /** @return every key under {@code prefix}, following continuation tokens */
    List<String> keys(String prefix) {
        List<String> keys = new ArrayList<>();
        String token = null;
        do {
            String continuation = token;
            ListObjectsV2Response page = client.listObjectsV2(b -> b.bucket(bucket).prefix(prefix)
                    .continuationToken(continuation)).join();
            page.contents().stream().map(S3Object::key).forEach(keys::add);
            token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        } while (token != null);
        return keys;
    }

    /**
     * Lists uploads with ListMultipartUploads (ListParts is unreliable on S3Proxy) and aborts those of exactly {@code key}.
     *
     * @return how many were aborted
     */
    int abortUploadsOf(String key) {
        int aborted = 0;
        String keyMarker = null;
        String uploadIdMarker = null;
        ListMultipartUploadsResponse page;
        do {
            String km = keyMarker;
            String um = uploadIdMarker;
            page = client.listMultipartUploads(b -> b.bucket(bucket).prefix(key).keyMarker(km).uploadIdMarker(um))
                    .join();
            for (MultipartUpload upload : page.uploads()) {
                if (upload.key().equals(key)) {
                    client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(upload.uploadId())).join();
                    aborted++;
                }
            }
            keyMarker = page.nextKeyMarker();
            uploadIdMarker = page.nextUploadIdMarker();
        } while (Boolean.TRUE.equals(page.isTruncated()));
        return aborted;
    }

    /**
     * Lists every incomplete upload of the bucket with ListMultipartUploads and aborts those initiated before
     * {@code cutoff} whose id {@code owned} does not name. {@code owned} is read after each page is listed, so an
     * upload whose journal appeared while the page was listed is kept.
     *
     * @param owned the upload ids a live upload journal owns now (its failure aborts nothing more)
     * @return how many were aborted
     */
    int abortUploadsInitiatedBefore(java.time.Instant cutoff, java.util.function.Supplier<java.util.Set<String>> owned) {
        int aborted = 0;
        String keyMarker = null;
        String uploadIdMarker = null;
        ListMultipartUploadsResponse page;
        do {
            String km = keyMarker;
            String um = uploadIdMarker;
            page = client.listMultipartUploads(b -> b.bucket(bucket).keyMarker(km).uploadIdMarker(um)).join();
            java.util.Set<String> journaled = owned.get();
            for (MultipartUpload upload : page.uploads()) {
                if (upload.initiated() != null && upload.initiated().isBefore(cutoff)
                        && !journaled.contains(upload.uploadId())) {
                    client.abortMultipartUpload(b -> b.bucket(bucket).key(upload.key()).uploadId(upload.uploadId()))
                            .join();
                    aborted++;
                }
            }
            keyMarker = page.nextKeyMarker();
            uploadIdMarker = page.nextUploadIdMarker();
        } while (Boolean.TRUE.equals(page.isTruncated()));
        return aborted;
    }
}
