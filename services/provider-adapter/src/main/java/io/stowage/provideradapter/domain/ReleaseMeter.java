package io.stowage.provideradapter.domain;

import io.stowage.events.StowageEvent;

/**
 * Told by the {@link ReleaseHandler} of every release outcome decided now ({@code volume.released} or
 * {@code volume.release.failed}), never of an outcome answered again for a request already done, nor of a dry run.
 */
@FunctionalInterface
public interface ReleaseMeter {
    /** Counts nothing. */
    ReleaseMeter NONE = (outcome, nanos) -> { };

    /**
     * @param outcome the outcome event just decided (and journaled, unless the decision was not authentic or could not
     *                be journaled)
     * @param nanos   how long the re-check and release took, in nanoseconds (0 for a refusal before either)
     */
    void decided(StowageEvent outcome, long nanos);
}
