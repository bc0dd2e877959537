package io.stowage.provideradapter.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * Sends the volume and pod lifecycle events (volume.created/destroyed, pod.created/terminated, provider.alert,
 * provider.action.failed, and the volume.release.requested a TTL or cap asks the gate for) through the one channel
 * {@code provider-events}, each to its own topic: value = the event's JSON, key = its asset id, headers = its
 * CloudEvents attributes (source {@code /stowage/provider-adapter}). Blocks until each is acked, in order.
 */
@ApplicationScoped
public class ProviderEventSender {
    private static final Logger LOG = Logger.getLogger(ProviderEventSender.class);
    private static final Set<String> TOPICS = Set.of(Topics.VOLUME_CREATED, Topics.VOLUME_DESTROYED,
            Topics.POD_CREATED, Topics.POD_TERMINATED, Topics.PROVIDER_ALERT, Topics.PROVIDER_ACTION_FAILED,
            Topics.VOLUME_RELEASE_REQUESTED);

    private final MutinyEmitter<byte[]> emitter;

    ProviderEventSender(@Channel("provider-events") MutinyEmitter<byte[]> emitter) {
        this.emitter = emitter;
    }

    /** Sends each event to its topic, in order, waiting for each ack. @throws IllegalArgumentException for a topic not ours */
    public void send(List<StowageEvent> events) {
        for (StowageEvent event : events) {
            if (!TOPICS.contains(event.topic())) {
                throw new IllegalArgumentException("provider-events does not carry " + event.topic());
            }
            RecordHeaders headers = new RecordHeaders();
            CloudEventHeaders.of(event, EventSender.SOURCE).forEach((name, value) ->
                    headers.add(name, value.getBytes(StandardCharsets.UTF_8)));
            emitter.sendMessageAndAwait(Message.of(EventCodec.encode(event)).addMetadata(
                    OutgoingKafkaRecordMetadata.<String>builder().withTopic(event.topic()).withKey(event.assetId())
                            .withHeaders(headers).build()));
            LOG.infof("sent %s event %s asset %s", event.topic(), event.meta().eventId(), event.assetId());
        }
    }
}
