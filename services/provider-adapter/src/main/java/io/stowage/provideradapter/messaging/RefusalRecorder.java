package io.stowage.provideradapter.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.stowage.auth.RefusedRequest;
import io.stowage.events.EventMeta;
import io.stowage.events.ReleaseRefused;
import io.stowage.messaging.OutgoingEvents;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Consumes the refused HTTP requests of the token check and produces one {@code release.refused} (who and why) for
 * each refused {@code POST /api/volumes/{id}/release} or {@code POST /api/pods/{id}/terminate}: the two calls that
 * give a resource back. Sent without waiting, since it runs on the HTTP event loop.
 */
@ApplicationScoped
public class RefusalRecorder {
    private static final Logger LOG = Logger.getLogger(RefusalRecorder.class);
    private static final Pattern RELEASE_PATHS = Pattern.compile("/api/(volumes/[^/]+/release|pods/[^/]+/terminate)/?");

    private final MutinyEmitter<byte[]> refused;

    RefusalRecorder(@Channel("release-refused") MutinyEmitter<byte[]> refused) {
        this.refused = refused;
    }

    void onRefused(@Observes RefusedRequest request) {
        if (!"POST".equals(request.method()) || !RELEASE_PATHS.matcher(request.path()).matches()) {
            return;
        }
        String refusalId = UUID.randomUUID().toString();
        ReleaseRefused event = ReleaseRefused.of(EventMeta.first(refusalId, Clock.systemUTC()), refusalId,
                "provider-adapter", request.method(), request.path(), request.status(), request.reason(),
                request.tokenName(), request.tokenRole(), request.remote());
        refused.sendMessageAndForget(OutgoingEvents.message(event, EventSender.SOURCE));
        LOG.infof("sent %s event %s asset %s: %d %s %s", event.topic(), event.meta().eventId(), event.assetId(),
                event.status(), event.reason(), event.path());
    }
}
