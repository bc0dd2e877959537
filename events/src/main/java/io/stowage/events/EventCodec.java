package io.stowage.events;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import java.io.IOException;
import java.util.Map;

/**
 * JSON encoding of events and of the manifest files: UTF-8, ISO-8601 times, unknown fields
 * ignored (a newer minor version only adds fields), versions above {@link EventMeta#CURRENT_VERSION}
 * refused.
 */
public final class EventCodec {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            // money (BigDecimal US dollars) as 0.000160, never 1.6E-4
            .enable(com.fasterxml.jackson.core.StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private static final Map<String, Class<? extends StowageEvent>> TYPES = Map.ofEntries(
            Map.entry(Topics.SHARD_BUILT, ShardBuilt.class),
            Map.entry(Topics.DATASET_SEALED, DatasetSealed.class),
            Map.entry(Topics.CHECKPOINT_PUBLISHED, CheckpointPublished.class),
            Map.entry(Topics.OBJECT_UPLOADED, ObjectUploaded.class),
            Map.entry(Topics.OBJECT_UPLOAD_FAILED, ObjectUploadFailed.class),
            Map.entry(Topics.OBJECT_VERIFIED, ObjectVerified.class),
            Map.entry(Topics.VOLUME_RELEASE_REQUESTED, ReleaseRequested.class),
            Map.entry(Topics.GATE_PASSED, GatePassed.class),
            Map.entry(Topics.GATE_INVENTORY, GateInventory.class),
            Map.entry(Topics.GATE_DENIED, GateDenied.class),
            Map.entry(Topics.VOLUME_RELEASED, VolumeReleased.class),
            Map.entry(Topics.VOLUME_RELEASE_FAILED, VolumeReleaseFailed.class),
            Map.entry(Topics.VOLUME_CREATED, VolumeCreated.class),
            Map.entry(Topics.VOLUME_DESTROYED, VolumeDestroyed.class),
            Map.entry(Topics.POD_CREATED, PodCreated.class),
            Map.entry(Topics.POD_TERMINATED, PodTerminated.class),
            Map.entry(Topics.PROVIDER_ALERT, ProviderAlert.class),
            Map.entry(Topics.PROVIDER_ACTION_FAILED, ProviderActionFailed.class),
            Map.entry(Topics.ARCHIVE_PUBLISHED, ArchivePublished.class),
            Map.entry(Topics.BASELINE_ARCHIVED, BaselineArchived.class),
            Map.entry(Topics.RELEASE_REFUSED, ReleaseRefused.class),
            Map.entry(Topics.CHECKPOINT_PINNED, CheckpointPinned.class),
            Map.entry(Topics.RETENTION_DECIDED, RetentionDecided.class),
            Map.entry(Topics.CHECKPOINT_EXPIRED, CheckpointExpired.class),
            Map.entry(Topics.RETENTION_REFUSED, RetentionRefused.class),
            Map.entry(Topics.MODEL_PUBLISHED, ModelPublished.class),
            Map.entry(Topics.MODEL_SHARED, ModelShared.class),
            Map.entry(Topics.RUN_STARTED, RunStarted.class),
            Map.entry(Topics.RUN_PROGRESS, RunProgress.class),
            Map.entry(Topics.RUN_FINISHED, RunFinished.class));

    private EventCodec() {
    }

    /** @return the shared, thread-safe mapper (also used for manifest files and the ledger API) */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** @return the event class published on {@code topic}; throws {@link InvalidEventException} for an unknown topic */
    public static Class<? extends StowageEvent> typeOf(String topic) {
        Class<? extends StowageEvent> type = TYPES.get(topic);
        if (type == null) {
            throw new InvalidEventException("unknown topic " + topic);
        }
        return type;
    }

    /**
     * Validates and encodes an event.
     *
     * @return UTF-8 JSON bytes
     * @throws InvalidEventException when the event fails validation
     */
    public static byte[] encode(StowageEvent event) {
        event.validate();
        try {
            return MAPPER.writeValueAsBytes(event);
        } catch (IOException e) {
            throw new InvalidEventException("cannot encode " + event.topic() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Decodes and validates the JSON of an event published on {@code topic}.
     *
     * @throws InvalidEventException when the bytes are null, not JSON of that event, or fail validation;
     *                               the message is the dead-letter reason
     */
    public static StowageEvent decode(String topic, byte[] json) {
        return decode(typeOf(topic), json);
    }

    /** As {@link #decode(String, byte[])} for a known event class. */
    public static <T extends StowageEvent> T decode(Class<T> type, byte[] json) {
        if (json == null || json.length == 0) {
            throw new InvalidEventException("empty record value");
        }
        T event;
        try {
            event = MAPPER.readValue(json, type);
        } catch (IOException e) {
            throw new InvalidEventException("not a " + type.getSimpleName() + ": " + firstLine(e.getMessage()), e);
        }
        if (event == null) {
            throw new InvalidEventException("null record value");
        }
        event.validate();
        return event;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable JSON";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
