package io.stowage.uploader;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Tuning of the uploader, from {@code stowage.uploader.*}. */
@ConfigMapping(prefix = "stowage.uploader")
public interface UploaderSettings {
    /**
     * Attempts per store call when the store is unreachable, resets the connection or answers 5xx, 429, 408 or
     * 503 SlowDown, before reporting a transient failure. A 403, a missing bucket or any other 4xx is never retried.
     */
    @WithDefault("4")
    int retryAttempts();

    /**
     * Ceiling of the wait before the second attempt; the ceiling doubles after each failure up to retry-max-backoff,
     * and each wait is drawn uniformly between half the ceiling and the ceiling (jitter).
     */
    @WithDefault("PT1S")
    Duration retryInitialBackoff();

    /** Largest ceiling of a wait between two attempts. */
    @WithDefault("PT10S")
    Duration retryMaxBackoff();

    /** Files of at least this many bytes go up as a multipart upload (default 64 MiB). */
    @WithDefault("67108864")
    long multipartThreshold();

    /**
     * Bytes per part of a new multipart upload, at least 5 MiB (default 64 MiB). Fixed when an upload is
     * created: a resumed upload keeps the part size recorded in its journal.
     */
    @WithDefault("67108864")
    int partSize();

    /** Parts sent at once per upload; each is streamed from the file (hashed first, re-hashed as sent), so memory does not grow with part size. */
    @WithDefault("4")
    int partsInFlight();

    /**
     * Files below {@code multipart-threshold} sent at once, across all the events being uploaded (default 8): the
     * files of one checkpoint step go up side by side instead of one round trip after another. A file at or above the
     * threshold goes up alone on its event's thread, its parts {@code parts-in-flight} at a time. Each small file is
     * streamed from disk, so memory does not grow with this number. At least 1.
     */
    @WithDefault("8")
    int filesInFlight();

    /**
     * Directory for the uploader's durable state: multipart upload journals ({@code journals/<store>/}) and the
     * steps waiting for verification before their {@code latest} pointer is written ({@code pointers/}). Must
     * survive a restart of the uploader for uploads to resume. No default outside the dev and test profiles.
     */
    Path stateDir();

    /**
     * The state directories of the other uploader instances writing to the same buckets (comma-separated absolute
     * paths, env {@code STOWAGE_UPLOADER_PEER_STATE_DIRS}; {@code stowage up --instances uploader=N} sets it for each
     * instance). The instance that sweeps abandoned multipart uploads never aborts an upload that a journal under any
     * of them ({@code journals/<store>/}) names, and aborts nothing in a pass where one of them cannot be read. None
     * configured: only this instance's own journals protect an upload, which is right for a single instance.
     */
    Optional<List<Path>> peerStateDirs();

    /** Incomplete multipart uploads created longer ago than this are aborted (at start-up, then every sweep-interval). */
    @WithDefault("PT24H")
    Duration abandonUploadsAfter();

    /** How often incomplete multipart uploads are checked against abandon-uploads-after. */
    @WithDefault("PT1H")
    Duration abandonedUploadSweep();

    /**
     * The only directories whose files the uploader reads and uploads (comma-separated absolute paths, env
     * {@code STOWAGE_UPLOADER_ROOTS}): the shard-builder's staging directory and the volume roots. A local path in an
     * event outside them, with a {@code ..} segment, or resolving through a symlink to outside them is dead-lettered
     * unread ({@code UploadRoots}). None configured: every upload is refused.
     */
    Optional<List<Path>> roots();

    /** Check at start-up that both stores answer, their buckets exist and the credentials are accepted. */
    @WithDefault("true")
    boolean probeStores();
}
