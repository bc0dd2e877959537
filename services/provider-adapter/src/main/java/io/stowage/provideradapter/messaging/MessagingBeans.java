package io.stowage.provideradapter.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.stowage.auth.RefusedRequest;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.GateSignature;
import io.stowage.events.StowageEvent;
import io.stowage.events.Topics;
import io.stowage.events.VolumeReleased;
import io.stowage.messaging.EventPublisher;
import io.stowage.messaging.GateSettings;
import io.stowage.messaging.IncomingEvents;
import io.stowage.messaging.RedeliverySettings;
import io.stowage.messaging.RefusalRecorder;
import io.stowage.provideradapter.domain.cost.CostCalculator;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.nio.charset.StandardCharsets;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Produces the provider-adapter's {@link EventPublisher} (source {@value #SOURCE}): {@code volume.released} and
 * {@code volume.release.failed} on their channels, the volume and pod lifecycle events (volume.created/destroyed,
 * pod.created/terminated, provider.alert, provider.action.failed, and the volume.release.requested a TTL or cap asks
 * the gate for) through the one channel {@code provider-events}, each to its own topic (the list is
 * {@code stowage.kafka.routed.provider-events}; retention's {@code retention.decided}, signed like a gate decision,
 * {@code checkpoint.expired} and {@code retention.refused} too), and {@code release.refused};
 * a {@code volume.released} without a saving gets {@code bytesFreed} and {@code costSavedUsdPerMonth} from the price
 * table on the way out. Produces the {@link IncomingEvents} shape its consumers share. Records each refused {@code POST /api/volumes/{id}/release} and
 * {@code POST /api/pods/{id}/terminate} (the two calls that give a resource back) as {@code release.refused}.
 */
@ApplicationScoped
public class MessagingBeans {
    /** CloudEvents source of every event the provider-adapter produces. */
    public static final String SOURCE = "/stowage/provider-adapter";
    private static final Pattern RELEASE_PATHS = Pattern.compile("/api/(volumes/[^/]+/release|pods/[^/]+/terminate)/?");

    @Produces
    @ApplicationScoped
    EventPublisher publisher(@Channel("volume-released") MutinyEmitter<byte[]> released,
                             @Channel("volume-release-failed") MutinyEmitter<byte[]> failed,
                             @Channel("provider-events") MutinyEmitter<byte[]> lifecycle,
                             @Channel("release-refused") MutinyEmitter<byte[]> refused, CostCalculator costs,
                             @ConfigProperty(name = "stowage.kafka.routed.provider-events") List<String> lifecycleTopics,
                             GateSettings gate) {
        Map<String, MutinyEmitter<byte[]>> emitters = new HashMap<>();
        // the topics provider-events may name come from configuration, the same list the Kafka ACL table is derived from
        lifecycleTopics.forEach(topic -> emitters.put(topic, lifecycle));
        emitters.put(Topics.VOLUME_RELEASED, released);
        emitters.put(Topics.VOLUME_RELEASE_FAILED, failed);
        emitters.put(Topics.RELEASE_REFUSED, refused);
        return EventPublisher.of(SOURCE, emitters).enrichedBy(event -> withSaving(event, costs))
                .finishedBy(message -> signedDecision(message, gate));
    }

    // a retention decision is signed like a gate decision: the hex HMAC of the exact value bytes, under the gate's key
    private static Message<byte[]> signedDecision(Message<byte[]> message, GateSettings gate) {
        OutgoingKafkaRecordMetadata<?> metadata = message.getMetadata(OutgoingKafkaRecordMetadata.class).orElse(null);
        if (metadata == null || !Topics.RETENTION_DECIDED.equals(metadata.getTopic())) {
            return message;
        }
        String mac = new GateSignature(gate.signingKey().orElse(null)).sign(message.getPayload());
        metadata.getHeaders().add(CloudEventHeaders.SIGNATURE, mac.getBytes(StandardCharsets.US_ASCII));
        return message;
    }

    @Produces
    @ApplicationScoped
    IncomingEvents incoming(EventPublisher publisher, RedeliverySettings redelivery) {
        return new IncomingEvents(publisher, redelivery.redelivery());
    }

    @Produces
    @ApplicationScoped
    RefusalRecorder refusals(EventPublisher publisher) {
        return new RefusalRecorder("provider-adapter", RELEASE_PATHS, publisher, Clock.systemUTC());
    }

    void onRefused(@Observes RefusedRequest refused, RefusalRecorder refusals) {
        refusals.record(refused);
    }

    private static StowageEvent withSaving(StowageEvent event, CostCalculator costs) {
        if (event instanceof VolumeReleased released && released.costSavedUsdPerMonth() == null) {
            return released.withSaving(costs.releaseSavingMonthly(released.totalBytes()));
        }
        return event;
    }
}
