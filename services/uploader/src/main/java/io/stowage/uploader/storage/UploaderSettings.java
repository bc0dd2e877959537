package io.stowage.uploader.storage;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.nio.file.Path;
import java.time.Duration;

/** Tuning of the uploader, from {@code stowage.uploader.*}. */
@ConfigMapping(prefix = "stowage.uploader")
public interface UploaderSettings {
    /** Attempts per store call when the store is unreachable or answers 5xx, before reporting a transient failure. */
    @WithDefault("4")
    int retryAttempts();

    /** Wait before the second attempt; doubles after each failure. */
    @WithDefault("PT1S")
    Duration retryInitialBackoff();

    /** Longest wait between two attempts. */
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
     * Directory for the uploader's durable state: multipart upload journals ({@code journals/<store>/}) and the
     * steps waiting for verification before their {@code latest} pointer is written ({@code pointers/}). Must
     * survive a restart of the uploader for uploads to resume.
     */
    @WithDefault("${java.io.tmpdir}/stowage-uploader")
    Path stateDir();

    /** Incomplete multipart uploads created longer ago than this are aborted (at start-up, then every sweep-interval). */
    @WithDefault("PT24H")
    Duration abandonUploadsAfter();

    /** How often incomplete multipart uploads are checked against abandon-uploads-after. */
    @WithDefault("PT1H")
    Duration abandonedUploadSweep();

    /** Check at start-up that both stores answer, their buckets exist and the credentials are accepted. */
    @WithDefault("true")
    boolean probeStores();
}
