package io.stowage.gatekeeper.messaging;

import io.stowage.auth.RefusedRequest;
import io.stowage.events.EventMeta;
import io.stowage.events.ReleaseRefused;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.UUID;

/**
 * Consumes the refused HTTP requests of the token check and produces one {@code release.refused} for each refused
 * {@code POST /api/releases} (no token, an unknown one, or a reader's), so that the ledger records who tried.
 * Refused reads are only logged (by {@link io.stowage.auth.RefusalListener}).
 */
@ApplicationScoped
public class RefusalRecorder {
    private static final Logger LOG = Logger.getLogger(RefusalRecorder.class);
    static final String RELEASES_PATH = "/api/releases";

    private final RequestSender sender;
    private final Clock clock;

    RefusalRecorder(RequestSender sender, Clock clock) {
        this.sender = sender;
        this.clock = clock;
    }

    void onRefused(@Observes RefusedRequest refused) {
        if (!"POST".equals(refused.method()) || !isReleasesPath(refused.path())) {
            return;
        }
        String refusalId = UUID.randomUUID().toString();
        ReleaseRefused event = ReleaseRefused.of(EventMeta.first(refusalId, clock), refusalId, "gatekeeper",
                refused.method(), refused.path(), refused.status(), refused.reason(), refused.tokenName(),
                refused.tokenRole(), refused.remote());
        sender.sendAndForget(event);
        LOG.infof("sent %s event %s asset %s: %d %s", event.topic(), event.meta().eventId(), event.assetId(),
                event.status(), event.reason());
    }

    static boolean isReleasesPath(String path) {
        return RELEASES_PATH.equals(path) || (RELEASES_PATH + "/").equals(path);
    }
}
