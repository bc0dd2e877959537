package io.stowage.provideradapter.domain.resource;

/**
 * A provider action failed. {@code permanent} is true for a refusal (HTTP 4xx other than 404-on-delete and 429:
 * retrying the same request will not help) and false when the retries on 5xx, 429 or I/O errors ran out.
 * The message is one line from the provider and never holds the API key.
 */
public class ProviderException extends RuntimeException {
    private final int httpStatus;
    private final boolean permanent;

    /**
     * @param httpStatus the last HTTP status, 0 when there was none (I/O error, local provider)
     * @param permanent  true for a 4xx refusal
     * @param message    one line
     */
    public ProviderException(int httpStatus, boolean permanent, String message) {
        super(message);
        this.httpStatus = httpStatus;
        this.permanent = permanent;
    }

    /** @return the last HTTP status, 0 when none */
    public int httpStatus() {
        return httpStatus;
    }

    /** @return true when retrying will not help */
    public boolean permanent() {
        return permanent;
    }
}
