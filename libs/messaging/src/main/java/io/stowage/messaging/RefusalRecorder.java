package io.stowage.messaging;

import io.stowage.auth.RefusedRequest;
import io.stowage.events.EventMeta;
import io.stowage.events.ReleaseRefused;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Consumes the {@link RefusedRequest}s of the token check ({@code io.stowage.auth.RefusalListener} fires one per
 * refused HTTP request) and produces one {@code release.refused} for each refused {@code POST} to a path that gives
 * something back (a release, a terminate), so that the ledger records who tried. Other refusals are only logged (by
 * the listener). Sent without waiting, since refusals are observed on the HTTP event loop.
 */
public final class RefusalRecorder {
    private static final Logger LOG = Logger.getLogger(RefusalRecorder.class);
    private final String service;
    private final Pattern releasePaths;
    private final EventPublisher publisher;
    private final Clock clock;

    /**
     * @param service      the service's name in the event, e.g. {@code gatekeeper}
     * @param releasePaths the request paths (whole path, no query) whose refused POSTs are recorded
     * @param publisher    sends {@code release.refused}
     * @param clock        the event's time
     */
    public RefusalRecorder(String service, Pattern releasePaths, EventPublisher publisher, Clock clock) {
        this.service = service;
        this.releasePaths = releasePaths;
        this.publisher = publisher;
        this.clock = clock;
    }

    /** @return the {@code release.refused} sent for {@code refused}; empty when it is not a refused release */
    public Optional<ReleaseRefused> record(RefusedRequest refused) {
        if (!"POST".equals(refused.method()) || !releasePaths.matcher(refused.path()).matches()) {
            return Optional.empty();
        }
        String refusalId = UUID.randomUUID().toString();
        ReleaseRefused event = ReleaseRefused.of(EventMeta.first(refusalId, clock), refusalId, service,
                refused.method(), refused.path(), refused.status(), refused.reason(), refused.tokenName(),
                refused.tokenRole(), refused.remote());
        publisher.sendAndForget(event);
        LOG.infof("sent %s event %s asset %s: %d %s %s", event.topic(), event.meta().eventId(), event.assetId(),
                event.status(), event.reason(), event.path());
        return Optional.of(event);
    }
}
