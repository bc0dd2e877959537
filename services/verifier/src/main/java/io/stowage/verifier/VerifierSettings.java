package io.stowage.verifier;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** Tuning of the verifier, from {@code stowage.verifier.*}; see {@link io.stowage.verifier.domain.FullReadPolicy}. */
@ConfigMapping(prefix = "stowage.verifier")
public interface VerifierSettings {
    /** Share (0.0–1.0) of the remaining objects re-read in full; manifests, replica objects and the first of each asset always are. */
    @WithDefault("1.0")
    double fullReadFraction();

    /** Salt of the deterministic per-key sample: the same seed picks the same keys. */
    @WithDefault("0")
    long samplingSeed();

    /** Asset ids with a successful full read kept in memory (least recent forgotten first). */
    @WithDefault("100000")
    int rememberedAssets();

    /** Objects larger than this many bytes are re-read as parallel ranged GETs. */
    @WithDefault("67108864")
    long rangedReadThreshold();

    /** Bytes per ranged GET (each held in memory until hashed). */
    @WithDefault("16777216")
    int rangedReadPartSize();

    /** Ranged GETs of one object in flight at once. */
    @WithDefault("4")
    int rangedReadsInFlight();

    /**
     * Uploaded objects verified at once (HEAD, full read, results published), across every event: the size of the
     * {@code verify-objects} worker pool that the {@code object.uploaded} consumer runs on (bound through
     * {@code smallrye.messaging.worker.verify-objects.max-concurrency} in application.properties).
     */
    @WithDefault("8")
    int objectsInFlight();

    /**
     * Objects above {@link #rangedReadThreshold()} read in full at once (uploads and scrub together); each holds up to
     * {@link #rangedReadPartSize()} × {@link #rangedReadsInFlight()} bytes in memory.
     */
    @WithDefault("1")
    int rangedObjectsInFlight();

    /** HTTP client of the blocking S3 client that reads the stores: APACHE or URL_CONNECTION (docs/benchmarks/re-read.md). */
    @WithDefault("APACHE")
    HttpClient httpClient();

    /** The HTTP clients the blocking S3 client can run on (the store module's {@code HttpBackend} of the same names). */
    enum HttpClient {
        /** Apache HttpClient 5, pooled connections. */
        APACHE,
        /** The JDK's HttpURLConnection, keep-alive connections. */
        URL_CONNECTION
    }

    /** Attempts per store call when the store is unreachable or answers 5xx, before reporting ERROR. */
    @WithDefault("4")
    int retryAttempts();

    /** Wait before the second attempt; doubles after each failure. */
    @WithDefault("PT1S")
    Duration retryInitialBackoff();

    /** Longest wait between two attempts. */
    @WithDefault("PT10S")
    Duration retryMaxBackoff();

    /** The rolling scrub ({@code stowage.verifier.scrub.*}). */
    Scrub scrub();

    /** The rolling scrub: re-reads the objects re-read least recently, within a byte budget per hour. */
    interface Scrub {
        /** Whether the scrub runs on its own every {@link #tick()}; off, it runs only when called. */
        @WithDefault("true")
        boolean enabled();

        /** Bytes the scrub may re-read per hour (10 GiB); set it to at least the store's bytes ÷ the period in hours. */
        @WithDefault("10737418240")
        long bytesPerHour();

        /** Every object is to be re-read within this period; objects re-read less than half of it ago are skipped. */
        @WithDefault("P30D")
        Duration period();

        /** Time between two scrub runs; the first comes one tick after start. */
        @WithDefault("PT10M")
        Duration tick();

        /** Objects asked of the ledger per run (at most 1000). */
        @WithDefault("1000")
        int batch();

        /** Base URL of the ledger HTTP API, where the scrub learns the objects and their last re-read. */
        @WithDefault("http://127.0.0.1:8086")
        String ledgerUrl();
    }
}
