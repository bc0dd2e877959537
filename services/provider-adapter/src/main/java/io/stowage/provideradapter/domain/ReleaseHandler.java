package io.stowage.provideradapter.domain;

import io.stowage.events.EventMeta;
import io.stowage.events.GatePassed;
import io.stowage.events.StowageEvent;
import io.stowage.events.VolumeReleaseFailed;
import io.stowage.events.VolumeReleased;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;

/**
 * Takes a {@link GatePassed} and returns the event to emit after handing the release to the
 * provider: {@link VolumeReleased} or {@link VolumeReleaseFailed}; nothing for a dry run, which
 * is evaluated by the gate but never executed. A redelivered gate.passed whose directory is
 * already deleted yields VolumeReleaseFailed("already gone: ..."), never a second deletion.
 */
public final class ReleaseHandler {
    private final ReleaseProvider provider;
    private final Clock clock;

    public ReleaseHandler(ReleaseProvider provider, Clock clock) {
        this.provider = provider;
        this.clock = clock;
    }

    /** @return empty for a dry run, else the outcome event caused by {@code passed} */
    public Optional<StowageEvent> handle(GatePassed passed) {
        if (passed.dryRun()) {
            return Optional.empty();
        }
        ReleaseResult result;
        try {
            result = provider.release(Path.of(passed.path()), passed.fingerprint());
        } catch (InvalidPathException e) {
            result = ReleaseResult.refused("not a valid path: " + e.getMessage());
        }
        EventMeta meta = EventMeta.causedBy(passed, clock);
        if (result.released()) {
            return Optional.of(VolumeReleased.of(meta, passed.requestId(), passed.path(), provider.name(),
                    result.fileCount(), result.totalBytes()));
        }
        return Optional.of(VolumeReleaseFailed.of(meta, passed.requestId(), passed.path(), result.reason()));
    }
}
