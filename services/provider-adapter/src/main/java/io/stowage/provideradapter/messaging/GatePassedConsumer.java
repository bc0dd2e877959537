package io.stowage.provideradapter.messaging;

import io.smallrye.reactive.messaging.annotations.Blocking;
import io.stowage.events.EventCodec;
import io.stowage.events.GatePassed;
import io.stowage.events.StowageEvent;
import io.stowage.provideradapter.domain.ReleaseHandler;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import java.util.Optional;

/**
 * Consumes {@code gate.passed}, re-checks and performs the release on a worker thread, and
 * produces {@code volume.released} or {@code volume.release.failed}; dry runs are logged and
 * skipped. An undecodable record throws, is nacked, and goes to the dead-letter topic.
 */
@ApplicationScoped
public class GatePassedConsumer {
    private static final Logger LOG = Logger.getLogger(GatePassedConsumer.class);

    private final ReleaseHandler handler;
    private final EventSender sender;

    GatePassedConsumer(ReleaseHandler handler, EventSender sender) {
        this.handler = handler;
        this.sender = sender;
    }

    /**
     * @param value the record's JSON bytes
     * @throws io.stowage.events.InvalidEventException when the record is not a valid GatePassed
     */
    @Incoming("gate-passed")
    @Blocking
    public void consume(byte[] value) {
        GatePassed passed = EventCodec.decode(GatePassed.class, value);
        Optional<StowageEvent> outcome = handler.handle(passed);
        if (outcome.isEmpty()) {
            LOG.infof("dry run: %s event %s asset %s path %s not executed", passed.topic(), passed.meta().eventId(),
                    passed.assetId(), passed.path());
            return;
        }
        StowageEvent event = outcome.get();
        sender.send(event);
        LOG.infof("sent %s event %s asset %s path %s caused by %s", event.topic(), event.meta().eventId(),
                event.assetId(), passed.path(), passed.meta().eventId());
    }
}
