package io.stowage.store.s3;

/**
 * How {@link S3ObjectStore#readAndHash} fetches an object: one GET up to {@code rangedThreshold} bytes,
 * above it ranged GETs of {@code partSize} bytes with at most {@code partsInFlight} requested at once
 * (each part held in memory until it is hashed, so at most {@code partSize × partsInFlight} bytes).
 *
 * @param rangedThreshold objects larger than this many bytes are read with ranged GETs
 * @param partSize        bytes per ranged GET, at least 1
 * @param partsInFlight   concurrent ranged GETs, at least 1
 */
public record ReadTuning(long rangedThreshold, int partSize, int partsInFlight) {

    public ReadTuning {
        if (rangedThreshold < 0 || partSize < 1 || partsInFlight < 1) {
            throw new IllegalArgumentException("rangedThreshold must be >= 0, partSize and partsInFlight >= 1: "
                    + rangedThreshold + ", " + partSize + ", " + partsInFlight);
        }
    }

    /** 64 MiB threshold, 16 MiB parts, 4 in flight (64 MiB buffered at most). */
    public static ReadTuning defaults() {
        return new ReadTuning(64L << 20, 16 << 20, 4);
    }
}
