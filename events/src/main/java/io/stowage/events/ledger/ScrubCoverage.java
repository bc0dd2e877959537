package io.stowage.events.ledger;

import java.time.Instant;

/**
 * How much of one store the full re-reads (upload-time samples and the rolling scrub) have covered, as of an
 * instant and over a period. Answer of the ledger's {@code GET /api/coverage}; shown by {@code stowage status}.
 * Only objects uploaded at or before {@code at} count.
 *
 * @param store                     logical store name ("primary", "replica")
 * @param at                        the instant the figures are for
 * @param periodSeconds             the scrub period, in seconds: every object should be re-read within it
 * @param objects                   objects of the store
 * @param bytes                     their bytes, as recorded at upload
 * @param objectsNeverReRead        objects without any FULL_READ result
 * @param objectsReReadInPeriod     objects whose newest FULL_READ result lies in (at − period, at]
 * @param fullReadsInPeriod         FULL_READ results in (at − period, at], scrub or not
 * @param scrubReadsInPeriod        of these, the ones the rolling scrub produced (correlation id starting "scrub-")
 * @param bytesReReadInPeriod       bytes those FULL_READ results read (their actual bytes; a missing object reads 0)
 * @param objectsOverdue            objects whose newest FULL_READ result (or, when never re-read, upload) is older
 *                                  than the period
 * @param oldestUncheckedKey        the object re-read longest ago (never-re-read objects count from their upload),
 *                                  null when the store has no object
 * @param oldestUncheckedSince      its newest FULL_READ time, or its upload time when never re-read; null with the key
 * @param oldestUncheckedNeverReRead true when that object was never re-read
 * @param oldestUncheckedAgeSeconds {@code at − oldestUncheckedSince} in seconds; null with the key
 */
public record ScrubCoverage(String store, Instant at, long periodSeconds, long objects, long bytes,
                            long objectsNeverReRead, long objectsReReadInPeriod, long fullReadsInPeriod,
                            long scrubReadsInPeriod, long bytesReReadInPeriod, long objectsOverdue,
                            String oldestUncheckedKey, Instant oldestUncheckedSince, boolean oldestUncheckedNeverReRead,
                            Long oldestUncheckedAgeSeconds) {
}
