package io.stowage.shardbuilder.domain;

import io.stowage.events.AssetIds;
import io.stowage.events.BaselineArchived;
import io.stowage.events.EventMeta;

import java.time.Clock;

/**
 * The event announcing a baseline archive: consumes an {@link ArchivedBaseline} (not a dry run), produces one
 * {@link BaselineArchived} that starts its own flow (correlation id = the asset id {@code baseline/<model>/<milestone>}).
 */
public final class BaselineEvents {
    private BaselineEvents() {
    }

    /** @throws IllegalArgumentException for a dry run (nothing was kept, so nothing can be uploaded) */
    public static BaselineArchived of(ArchivedBaseline archived, Clock clock) {
        if (archived.dryRun()) {
            throw new IllegalArgumentException("a dry run of " + archived.sourceDir() + " has nothing to publish");
        }
        var m = archived.manifest();
        return BaselineArchived.of(EventMeta.first(AssetIds.baseline(m.model(), m.milestone()), clock),
                m.model(), m.milestone(), archived.sourceDir().toString(),
                archived.archive().path().toString(), archived.archive().bytes(), archived.archive().sha256(),
                archived.members().path().toString(), archived.members().bytes(), archived.members().sha256(),
                archived.manifestFile().path().toString(), archived.manifestFile().bytes(),
                archived.manifestFile().sha256(), m.memberCount(), m.memberBytes());
    }
}
