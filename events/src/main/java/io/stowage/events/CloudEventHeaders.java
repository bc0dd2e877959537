package io.stowage.events;

/**
 * Kafka header names of the CloudEvents 1.0 attributes in binary content mode (the Kafka protocol
 * binding prefixes each attribute with {@code ce_}), plus Stowage's two extension attributes.
 * Header values are UTF-8 strings.
 */
public final class CloudEventHeaders {
    public static final String SPEC_VERSION = "ce_specversion";
    /** Always {@code 1.0}. */
    public static final String SPEC_VERSION_VALUE = "1.0";
    /** Unique event id; equals {@link EventMeta#eventId()}. */
    public static final String ID = "ce_id";
    /** The producing service, e.g. {@code /stowage/uploader}. */
    public static final String SOURCE = "ce_source";
    /** {@code io.stowage.<topic>.v1}, see {@link Topics#cloudEventType(String)}. */
    public static final String TYPE = "ce_type";
    /** RFC 3339 time the event was produced. */
    public static final String TIME = "ce_time";
    /** The asset the event is about; equals the Kafka record key. */
    public static final String SUBJECT = "ce_subject";
    /** Always {@code application/json}. */
    public static final String CONTENT_TYPE = "content-type";
    /** The flow: one dataset revision, one checkpoint step, one release request. */
    public static final String CORRELATION_ID = "ce_correlationid";
    /** Id of the event that caused this one (absent for a first event). */
    public static final String CAUSATION_ID = "ce_causationid";
    /**
     * Gate decisions: HMAC-SHA256 of the record value under the gatekeeper's signing key, hex
     * ({@link GateSignature}); the provider-adapter acts only on a {@code gate.passed} whose signature verifies.
     */
    public static final String SIGNATURE = "stowage-signature";
    /** Dead-letter records: why the record was refused. */
    public static final String DLQ_REASON = "dead-letter-reason";
    /** Dead-letter records: the topic the record came from. */
    public static final String DLQ_TOPIC = "dead-letter-topic";

    private CloudEventHeaders() {
    }

    /**
     * The CloudEvents headers of one event, in a stable order, as UTF-8 strings to put on the Kafka record.
     *
     * @param source the producing service, e.g. {@code /stowage/uploader}
     * @return header name to value; {@link #CAUSATION_ID} is absent when the event has no cause
     */
    public static java.util.Map<String, String> of(StowageEvent event, String source) {
        java.util.Map<String, String> headers = new java.util.LinkedHashMap<>();
        headers.put(SPEC_VERSION, SPEC_VERSION_VALUE);
        headers.put(ID, event.meta().eventId());
        headers.put(SOURCE, source);
        headers.put(TYPE, Topics.cloudEventType(event.topic()));
        headers.put(TIME, event.meta().time().toString());
        headers.put(SUBJECT, event.assetId());
        headers.put(CONTENT_TYPE, "application/json");
        headers.put(CORRELATION_ID, event.meta().correlationId());
        if (event.meta().causationId() != null) {
            headers.put(CAUSATION_ID, event.meta().causationId());
        }
        return headers;
    }
}
