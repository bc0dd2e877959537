package io.stowage.store.s3;

import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListPartsResponse;
import software.amazon.awssdk.services.s3.model.Part;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares what a {@link JournaledUpload} says was sent with what the store holds: whether the
 * upload still exists (ListMultipartUploads, because S3Proxy's ListParts answers 200 with no parts
 * for an unknown upload) and which journaled parts the store lists with the same ETag and size
 * (ListParts). A part the store holds but the journal lacks (sent, then a crash before it was
 * recorded) is sent again; a journaled part the store lacks is sent again too.
 */
final class PartReconciler {
    private final S3AsyncClient client;
    private final String bucket;

    PartReconciler(S3AsyncClient client, String bucket) {
        this.client = client;
        this.bucket = bucket;
    }

    /** @return true when the store lists an incomplete upload {@code uploadId} of exactly {@code key} */
    boolean exists(String key, String uploadId) {
        String keyMarker = null;
        String uploadIdMarker = null;
        ListMultipartUploadsResponse page;
        do {
            String km = keyMarker;
            String um = uploadIdMarker;
            page = client.listMultipartUploads(b -> b.bucket(bucket).prefix(key).keyMarker(km).uploadIdMarker(um))
                    .join();
            if (page.uploads().stream().anyMatch(u -> u.key().equals(key) && u.uploadId().equals(uploadId))) {
                return true;
            }
            keyMarker = page.nextKeyMarker();
            uploadIdMarker = page.nextUploadIdMarker();
        } while (Boolean.TRUE.equals(page.isTruncated()));
        return false;
    }

    /** @return the journaled parts the store also lists with the same ETag and size, in part order */
    List<CompletedPart> confirmed(JournaledUpload upload) {
        if (upload.parts().isEmpty()) {
            return List.of();
        }
        Map<Integer, Part> listed = listParts(upload);
        List<CompletedPart> confirmed = new ArrayList<>();
        Map<Integer, JournaledUpload.Part> journaled = new HashMap<>();
        upload.parts().forEach(p -> journaled.put(p.number(), p));
        journaled.values().stream().sorted(Comparator.comparingInt(JournaledUpload.Part::number))
                .forEach(p -> {
                    Part stored = listed.get(p.number());
                    if (stored != null && S3Errors.stripQuotes(stored.eTag()).equals(S3Errors.stripQuotes(p.etag()))
                            && stored.size() == p.bytes()) {
                        confirmed.add(CompletedPart.builder().partNumber(p.number()).eTag(p.etag()).build());
                    }
                });
        return confirmed;
    }

    /** S3Proxy returns every part at once and refuses a part-number marker, so a marker is sent only when truncated. */
    private Map<Integer, Part> listParts(JournaledUpload upload) {
        Map<Integer, Part> parts = new HashMap<>();
        Integer marker = null;
        ListPartsResponse page;
        do {
            Integer m = marker;
            page = client.listParts(b -> b.bucket(bucket).key(upload.key()).uploadId(upload.uploadId())
                    .partNumberMarker(m)).join();
            page.parts().forEach(p -> parts.put(p.partNumber(), p));
            marker = page.nextPartNumberMarker();
        } while (Boolean.TRUE.equals(page.isTruncated()) && marker != null);
        return parts;
    }
}
