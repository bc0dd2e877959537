package io.stowage.gatekeeper.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.stowage.auth.RefusedRequest;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.GateSignature;
import io.stowage.events.Topics;
import io.stowage.messaging.EventPublisher;
import io.stowage.messaging.IncomingEvents;
import io.stowage.messaging.RedeliverySettings;
import io.stowage.messaging.RefusalRecorder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Produces the gatekeeper's {@link EventPublisher} (source {@value #SOURCE}): {@code gate.passed} and
 * {@code gate.denied} signed with {@link CloudEventHeaders#SIGNATURE} (the hex HMAC-SHA256 of the exact value bytes
 * under the gate's signing key), {@code volume.release.requested} and {@code release.refused} unsigned (requests, not
 * decisions), {@code checkpoint.pinned} unsigned on the release-request channel; the {@link IncomingEvents} shape of
 * its consumer; and records each refused {@code POST /api/releases} or {@code POST /api/checkpoints/pins} as
 * {@code release.refused}.
 */
@ApplicationScoped
public class MessagingBeans {
    /** CloudEvents source of every event the gatekeeper produces. */
    public static final String SOURCE = "/stowage/gatekeeper";
    private static final Set<String> SIGNED = Set.of(Topics.GATE_PASSED, Topics.GATE_DENIED);
    private static final Pattern RELEASES_PATH = Pattern.compile("/api/releases/?|/api/checkpoints/pins/?");

    @Produces
    @ApplicationScoped
    EventPublisher publisher(@Channel("gate-passed") MutinyEmitter<byte[]> passed,
                             @Channel("gate-denied") MutinyEmitter<byte[]> denied,
                             @Channel("release-requested-out") MutinyEmitter<byte[]> requested,
                             @Channel("release-refused") MutinyEmitter<byte[]> refused, GateSignature signature) {
        return EventPublisher.of(SOURCE, Map.of(Topics.GATE_PASSED, passed, Topics.GATE_DENIED, denied,
                Topics.VOLUME_RELEASE_REQUESTED, requested, Topics.RELEASE_REFUSED, refused,
                // an operator's pin (POST /api/checkpoints/pins) is a request too: unsigned, on the same channel (each
                // record names its topic)
                Topics.CHECKPOINT_PINNED, requested,
                // the parts of a large inventory go first on the decision's channel (each record names its topic)
                Topics.GATE_INVENTORY, passed))
                .finishedBy(message -> signed(message, signature));
    }

    @Produces
    @ApplicationScoped
    IncomingEvents incoming(EventPublisher publisher, RedeliverySettings redelivery) {
        return new IncomingEvents(publisher, redelivery.redelivery());
    }

    @Produces
    @ApplicationScoped
    RefusalRecorder refusals(EventPublisher publisher, Clock clock) {
        return new RefusalRecorder("gatekeeper", RELEASES_PATH, publisher, clock);
    }

    void onRefused(@Observes RefusedRequest refused, RefusalRecorder refusals) {
        refusals.record(refused);
    }

    static Message<byte[]> signed(Message<byte[]> message, GateSignature signature) {
        OutgoingKafkaRecordMetadata<?> metadata = message.getMetadata(OutgoingKafkaRecordMetadata.class)
                .orElseThrow(() -> new IllegalStateException("OutgoingEvents built a message without Kafka metadata"));
        if (SIGNED.contains(metadata.getTopic())) {
            String mac = signature.sign(message.getPayload());
            metadata.getHeaders().add(CloudEventHeaders.SIGNATURE, mac.getBytes(StandardCharsets.US_ASCII));
        }
        return message;
    }
}
