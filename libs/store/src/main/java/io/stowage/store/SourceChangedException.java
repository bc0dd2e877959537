package io.stowage.store;

/**
 * The local file being uploaded is not the one that was described: its size or SHA-256, computed
 * over the bytes actually read, differs from the expected values. Nothing was left at the key.
 */
public class SourceChangedException extends StoreException {
    private final String expectedSha256;
    private final String actualSha256;
    private final long expectedBytes;
    private final long actualBytes;

    /** @param actualSha256 digest of the bytes read, or null when reading stopped at a size mismatch */
    public SourceChangedException(String file, long expectedBytes, String expectedSha256, long actualBytes,
                                  String actualSha256) {
        super(file + " changed: expected " + expectedBytes + " bytes sha256 " + expectedSha256 + ", read "
                + actualBytes + " bytes sha256 " + actualSha256, null);
        this.expectedSha256 = expectedSha256;
        this.actualSha256 = actualSha256;
        this.expectedBytes = expectedBytes;
        this.actualBytes = actualBytes;
    }

    public String expectedSha256() {
        return expectedSha256;
    }

    /** @return SHA-256 of the bytes read, or null when reading stopped early because the size differed */
    public String actualSha256() {
        return actualSha256;
    }

    public long expectedBytes() {
        return expectedBytes;
    }

    public long actualBytes() {
        return actualBytes;
    }
}
