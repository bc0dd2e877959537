package io.stowage.provideradapter.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.events.VolumeReleased;
import io.stowage.provideradapter.domain.cost.CostCalculator;
import io.stowage.messaging.OutgoingEvents;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Sends the provider-adapter's events to Kafka: value = the event's JSON, key = its asset id,
 * headers = its CloudEvents attributes with source {@code /stowage/provider-adapter}. Blocks until acked.
 */
@ApplicationScoped
public class EventSender {
    static final String SOURCE = "/stowage/provider-adapter";

    private final MutinyEmitter<byte[]> released;
    private final MutinyEmitter<byte[]> failed;
    private final CostCalculator costs;

    EventSender(@Channel("volume-released") MutinyEmitter<byte[]> released,
                @Channel("volume-release-failed") MutinyEmitter<byte[]> failed, CostCalculator costs) {
        this.released = released;
        this.failed = failed;
        this.costs = costs;
    }

    /**
     * Sends {@code event} on its topic (volume.released or volume.release.failed) and waits for the ack; a
     * volume.released without a saving gets {@code bytesFreed} and {@code costSavedUsdPerMonth} from the price table
     * on the way out (events from older senders carry no saving).
     */
    public void send(StowageEvent event) {
        if (event instanceof VolumeReleased released && released.costSavedUsdPerMonth() == null) {
            event = released.withSaving(costs.releaseSavingMonthly(released.totalBytes()));
        }
        Message<byte[]> message = OutgoingEvents.message(event, SOURCE);
        switch (event.topic()) {
            case Topics.VOLUME_RELEASED -> released.sendMessageAndAwait(message);
            case Topics.VOLUME_RELEASE_FAILED -> failed.sendMessageAndAwait(message);
            default -> throw new IllegalArgumentException("the provider-adapter does not produce " + event.topic());
        }
    }
}
