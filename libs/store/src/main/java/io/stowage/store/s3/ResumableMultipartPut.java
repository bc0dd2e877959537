package io.stowage.store.s3;

import io.stowage.store.PutResult;
import io.stowage.store.SourceChangedException;
import io.stowage.store.TransientStoreException;
import io.stowage.store.UploadObserver;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CompletedPart;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * One multipart upload of a local file that survives a crash of the uploading process. The part
 * size is fixed when the upload is created and recorded with its upload id in an {@link UploadJournal};
 * each part the store confirms is appended (number, bytes, SHA-256 of the bytes sent, ETag) and
 * forced to disk. A later run for the same key, size and SHA-256 continues the same upload: it
 * reconciles the journal with ListParts, re-reads the confirmed parts only to hash them (refusing a
 * file whose part no longer has the recorded SHA-256), and sends only the missing parts.
 *
 * <p>No part is held in memory: each part is first read and hashed in file order through a small
 * buffer ({@link HashingSource#hashNext}, which also feeds the whole-object digest), then streamed from
 * the file ({@link StreamedFileRange}), which hashes the bytes as they go out. A part whose sent bytes
 * do not have the SHA-256 computed before sending means the file changed mid-upload: it is never
 * journaled, the upload is aborted and the file refused. So the whole-object SHA-256 is that of the
 * bytes sent (or re-read and checked against what was sent), and the upload is completed only when it
 * equals the expected one. At most {@code partsInFlight} parts are being sent at once.
 * A transient store failure leaves the upload and its journal for the retry; any other failure
 * aborts the upload and deletes the journal, so no object appears.
 */
final class ResumableMultipartPut {
    private final S3AsyncClient client;
    private final String bucket;
    private final UploadTuning tuning;
    private final UploadJournal journal;
    private final UploadObserver observer;
    private final Clock clock;

    ResumableMultipartPut(S3AsyncClient client, String bucket, UploadTuning tuning, UploadJournal journal,
                          UploadObserver observer, Clock clock) {
        this.client = client;
        this.bucket = bucket;
        this.tuning = tuning;
        this.journal = journal;
        this.observer = observer;
        this.clock = clock;
    }

    PutResult run(String key, HashingSource source, long bytes, String sha256, Map<String, String> metadata) {
        Optional<JournaledUpload> earlier = resumable(key, bytes, sha256);
        JournaledUpload upload = earlier.orElseGet(() -> create(key, bytes, sha256, metadata));
        List<CompletedPart> confirmed = new PartReconciler(client, bucket).confirmed(upload);
        observer.started(key, upload.uploadId(), earlier.isPresent(), confirmed.size());
        List<CompletableFuture<CompletedPart>> sent = new ArrayList<>();
        try {
            sendMissing(upload, source, confirmed, sent);
            String actual = source.finish();
            List<CompletedPart> all = new ArrayList<>(confirmed);
            sent.stream().map(CompletableFuture::join).forEach(all::add);
            all.sort(Comparator.comparing(CompletedPart::partNumber));
            String etag = client.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(upload.uploadId())
                    .multipartUpload(m -> m.parts(all))).join().eTag();
            journal.delete();
            return new PutResult(S3Errors.stripQuotes(etag), bytes, actual, true);
        } catch (RuntimeException e) {
            settle(sent);
            if (!(S3Errors.translate(e, bucket, key, "PUT") instanceof TransientStoreException)) {
                abort(key, upload.uploadId());
            }
            throw e;
        }
    }

    /** The journaled upload of this key, if it describes the same object and the store still has it. */
    private Optional<JournaledUpload> resumable(String key, long bytes, String sha256) {
        Optional<JournaledUpload> old = journal.read();
        if (old.isEmpty()) {
            return old;
        }
        JournaledUpload j = old.get();
        boolean same = j.key().equals(key) && j.bytes() == bytes && j.sha256().equals(sha256);
        if (same && new PartReconciler(client, bucket).exists(key, j.uploadId())) {
            return old;
        }
        if (!same) {
            abort(key, j.uploadId());
        }
        journal.delete();
        return Optional.empty();
    }

    private JournaledUpload create(String key, long bytes, String sha256, Map<String, String> metadata) {
        String uploadId = client.createMultipartUpload(b -> b.bucket(bucket).key(key).metadata(metadata))
                .join().uploadId();
        JournaledUpload upload = new JournaledUpload(key, uploadId, tuning.partSize(), bytes, sha256,
                clock.millis(), List.of());
        journal.start(upload);
        return upload;
    }

    private void sendMissing(JournaledUpload upload, HashingSource source, List<CompletedPart> confirmed,
                             List<CompletableFuture<CompletedPart>> sent) {
        Map<Integer, String> confirmedSha = new HashMap<>();
        upload.parts().forEach(p -> confirmedSha.put(p.number(), p.sha256()));
        Set<Integer> done = new HashSet<>();
        confirmed.forEach(p -> done.add(p.partNumber()));
        Semaphore window = new Semaphore(tuning.partsInFlight());
        for (int number = 1; source.remaining() > 0; number++) {
            long size = Math.min(upload.partSize(), source.remaining());
            if (done.contains(number)) {
                requireSameAsSent(source, upload, number, source.hashNext(size), confirmedSha.get(number));
                continue;
            }
            // take the window first, so at most partsInFlight parts are being sent at once
            window.acquireUninterruptibly();
            failFast(sent);
            long offset = source.position();
            String partSha = source.hashNext(size);
            observer.beforePart(upload.key(), upload.uploadId(), number);
            sent.add(send(upload, source, number, offset, size, partSha).whenComplete((r, e) -> window.release()));
        }
    }

    /**
     * Streams the part from the file; once the store confirmed it, checks that the bytes sent are the
     * ones hashed for the whole-object digest before the part is journaled as done. A send that failed
     * because the file changed under it is a {@link SourceChangedException}, not a store failure.
     */
    private CompletableFuture<CompletedPart> send(JournaledUpload upload, HashingSource source, int number,
                                                  long offset, long size, String partSha) {
        StreamedFileRange body = new StreamedFileRange(source.file(), offset, size);
        return client.uploadPart(b -> b.bucket(bucket).key(upload.key()).uploadId(upload.uploadId())
                        .partNumber(number).contentLength(size), body)
                .handle((r, failure) -> {
                    StreamedFileRange.Sent sent = body.sent();
                    if (failure != null && !body.fileChanged()) {
                        throw failure instanceof CompletionException c ? c : new CompletionException(failure);
                    }
                    if (failure != null || sent.bytes() != size || !sent.sha256().equals(partSha)) {
                        throw new SourceChangedException(source.file() + " (part " + number + ", while it was sent)",
                                size, partSha, sent.bytes(), failure == null ? sent.sha256() : null);
                    }
                    synchronized (journal) {
                        journal.recordPart(new JournaledUpload.Part(number, size, partSha, r.eTag()));
                    }
                    observer.partSent(upload.key(), upload.uploadId(), number, size);
                    return CompletedPart.builder().partNumber(number).eTag(r.eTag()).build();
                });
    }

    /** A part confirmed by an earlier run must hash as it did when it was sent, or the file changed since. */
    private static void requireSameAsSent(HashingSource source, JournaledUpload upload, int number, String partSha,
                                          String sentSha256) {
        if (!partSha.equals(sentSha256)) {
            throw new SourceChangedException(source.file() + " (part " + number + ")", upload.bytes(),
                    upload.sha256(), upload.bytes(), null);
        }
    }

    private static void failFast(List<CompletableFuture<CompletedPart>> parts) {
        for (CompletableFuture<CompletedPart> part : parts) {
            if (part.isCompletedExceptionally()) {
                part.join();
            }
        }
    }

    /** Lets parts in flight land or fail first, so none lands after an abort and the journal is complete. */
    private static void settle(List<CompletableFuture<CompletedPart>> sent) {
        try {
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).handle((r, e) -> null)
                    .get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            // best effort: what is still in flight is cleaned up by the age-based abort
        }
    }

    private void abort(String key, String uploadId) {
        try {
            client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)).join();
        } catch (RuntimeException e) {
            // best effort: the age-based abort removes what is left
        }
        journal.delete();
    }
}
