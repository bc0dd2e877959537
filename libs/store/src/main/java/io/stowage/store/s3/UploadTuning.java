package io.stowage.store.s3;

/**
 * How {@link S3ObjectStore#put} cuts a file: one PUT below {@code multipartThreshold} bytes,
 * otherwise a multipart upload of {@code partSize}-byte parts with at most {@code partsInFlight}
 * parts being sent at once. Parts are streamed from the file, not held in memory.
 *
 * @param multipartThreshold files of at least this many bytes go up as a multipart upload
 * @param partSize           bytes per part (S3 minimum 5 MiB, except the last part)
 * @param partsInFlight      concurrent part uploads, at least 1
 */
public record UploadTuning(long multipartThreshold, int partSize, int partsInFlight) {
    /** S3's smallest part (except the last one). */
    public static final int MIN_PART_SIZE = 5 << 20;

    public UploadTuning {
        if (partSize < MIN_PART_SIZE) {
            throw new IllegalArgumentException("partSize must be at least 5 MiB: " + partSize);
        }
        if (partsInFlight < 1 || multipartThreshold < 1) {
            throw new IllegalArgumentException("partsInFlight and multipartThreshold must be positive");
        }
    }

    /** 64 MiB threshold, 16 MiB parts, 4 in flight. */
    public static UploadTuning defaults() {
        return new UploadTuning(64L << 20, 16 << 20, 4);
    }
}
