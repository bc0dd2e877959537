package io.stowage.uploader.storage;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

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

    /** Bytes per multipart part, at least 5 MiB (default 16 MiB). */
    @WithDefault("16777216")
    int partSize();

    /** Parts sent at once per upload (each held in memory while in flight). */
    @WithDefault("4")
    int partsInFlight();
}
