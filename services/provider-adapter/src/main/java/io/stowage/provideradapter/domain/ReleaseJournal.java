package io.stowage.provideradapter.domain;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The durable record of every approved release request ({@link ReleaseEntry}, one per request id), so that an
 * approved request is executed at most once across redeliveries and restarts, an interrupted deletion is finished
 * at start, and an outcome whose send failed is sent again with the same event id.
 */
public interface ReleaseJournal {

    /** @return the entry of {@code requestId}, empty when the request was never approved here */
    Optional<ReleaseEntry> entry(String requestId);

    /**
     * Replaces the entry of its request, durably (on disk, fsynced, before returning).
     *
     * @throws IOException when it cannot be made durable; the caller must then not go on to the next step
     */
    void save(ReleaseEntry entry) throws IOException;

    /** @return every entry, oldest update first */
    List<ReleaseEntry> entries();
}
