package io.stowage.events;

import java.util.List;

/**
 * Kafka topic names: the contract between the services (see docs/design/README.md, "Services and topics").
 * Every topic has a dead-letter topic named {@code <topic>.dlq} for records that cannot be parsed
 * or fail validation.
 */
public final class Topics {
    /** A shard and its member manifest were written; produced by shard-builder. */
    public static final String SHARD_BUILT = "shard.built";
    /** All shards of a dataset revision and its dataset manifest were written; shard-builder. */
    public static final String DATASET_SEALED = "dataset.sealed";
    /** A checkpoint step directory is complete and ready to upload; the CLI / watch sidecar. */
    public static final String CHECKPOINT_PUBLISHED = "checkpoint.published";
    /** An object is in a store at its content address; uploader. */
    public static final String OBJECT_UPLOADED = "object.uploaded";
    /** An object could not be uploaded (changed source, unreachable store); uploader. */
    public static final String OBJECT_UPLOAD_FAILED = "object.upload.failed";
    /** The result of a HEAD or full re-read of one object; verifier. */
    public static final String OBJECT_VERIFIED = "object.verified";
    /** An operator asks to release (delete) one directory; the CLI. */
    public static final String VOLUME_RELEASE_REQUESTED = "volume.release.requested";
    /** The five conditions hold for a release request; gatekeeper. */
    public static final String GATE_PASSED = "gate.passed";
    /** At least one condition failed for a release request; gatekeeper. */
    public static final String GATE_DENIED = "gate.denied";
    /** The parts of an inventory too large for its {@code gate.passed} record ({@link GateInventory}); gatekeeper only. */
    public static final String GATE_INVENTORY = "gate.inventory";
    /** The approved directory was deleted; provider-adapter. */
    public static final String VOLUME_RELEASED = "volume.released";
    /** The provider-adapter refused or failed an approved release (re-check failed); provider-adapter. */
    public static final String VOLUME_RELEASE_FAILED = "volume.release.failed";
    /** A provider volume (local directory with a quota, RunPod network volume) was created; provider-adapter. */
    public static final String VOLUME_CREATED = "volume.created";
    /** A provider volume was destroyed after its contents were released through the gate; provider-adapter. */
    public static final String VOLUME_DESTROYED = "volume.destroyed";
    /** A pod was created on a provider; provider-adapter. */
    public static final String POD_CREATED = "pod.created";
    /** A pod was terminated; provider-adapter. */
    public static final String POD_TERMINATED = "pod.terminated";
    /** A volume, pod or run reached its time-to-live or a hard cap, or its release is blocked; provider-adapter. */
    public static final String PROVIDER_ALERT = "provider.alert";
    /** A provider refused an action (4xx) or kept failing (5xx after retries); provider-adapter. */
    public static final String PROVIDER_ACTION_FAILED = "provider.action.failed";
    /** A milestone archive (a closed run's or dataset revision's ledger events, {@code jsonl.zst}) was written locally
     *  and is ready to upload; the CLI ({@code stowage audit archive}). */
    public static final String ARCHIVE_PUBLISHED = "archive.published";
    /** A hash-bound baseline archive ({@code tar.zst} of one directory, its member manifest and baseline manifest) was
     *  written to local staging; shard-builder ({@code POST /api/baselines/archive}). */
    public static final String BASELINE_ARCHIVED = "baseline.archived";
    /** A model revision (its files and model manifest) is ready to upload to {@code models/<model>/<revision>/};
     *  the CLI ({@code stowage model publish}). */
    public static final String MODEL_PUBLISHED = "model.published";
    /** Presigned GET URLs of a model revision's files were handed out (who, how long; never the URLs); the CLI
     *  ({@code stowage model share}). */
    public static final String MODEL_SHARED = "model.shared";
    /** A release (or other destructive) request was refused at an HTTP API for a missing, unknown or under-privileged
     *  bearer token; gatekeeper, provider-adapter. */
    public static final String RELEASE_REFUSED = "release.refused";
    /** An operator pinned or unpinned a stored checkpoint step (retention never expires a pinned step); the CLI. */
    public static final String CHECKPOINT_PINNED = "checkpoint.pinned";
    /** A retention decision for one run (the steps it expires), evaluated from the ledger and signed like a gate
     *  decision; provider-adapter ({@code POST /api/retention/apply}). */
    public static final String RETENTION_DECIDED = "retention.decided";
    /** Retention deleted a checkpoint step's objects from every store and confirmed them gone; provider-adapter (the
     *  retention executor). */
    public static final String CHECKPOINT_EXPIRED = "checkpoint.expired";
    /** The retention executor refused part or all of a decision (and deleted nothing of it); provider-adapter. */
    public static final String RETENTION_REFUSED = "retention.refused";

    /** One attempt of a training run started; the CLI ({@code stowage watch}, from the trainer's run file). */
    public static final String RUN_STARTED = "run.started";
    /** A training run attempt's step and time so far; the CLI ({@code stowage watch}). */
    public static final String RUN_PROGRESS = "run.progress";
    /** A training run attempt ended (completed, stopped, failed, preempted); the CLI ({@code stowage watch}). */
    public static final String RUN_FINISHED = "run.finished";

    /**
     * The one-partition topic whose partition 0 a service's instances share as a cluster lease (one consumer group per
     * service): the instance assigned it runs the service's periodic jobs. No record is ever written to it; it is not
     * an audit topic and not in {@link #ALL}.
     */
    public static final String LEASE = "stowage.lease";

    /**
     * The configuration key prefix naming a service's lease consumer group on {@link #LEASE}; the service name follows
     * ({@code stowage.kafka.lease.verifier=stowage-verifier-lease}). Read by the lease and by the ACL derivation.
     */
    public static final String LEASE_GROUP_KEY = "stowage.kafka.lease.";

    /** Every audit topic, in flow order. The ledger consumes all of these and their dead-letter topics. */
    public static final List<String> ALL = List.of(SHARD_BUILT, DATASET_SEALED, CHECKPOINT_PUBLISHED,
            OBJECT_UPLOADED, OBJECT_UPLOAD_FAILED, OBJECT_VERIFIED, VOLUME_RELEASE_REQUESTED,
            GATE_PASSED, GATE_DENIED, GATE_INVENTORY, VOLUME_RELEASED, VOLUME_RELEASE_FAILED, VOLUME_CREATED, VOLUME_DESTROYED,
            POD_CREATED, POD_TERMINATED, PROVIDER_ALERT, PROVIDER_ACTION_FAILED, ARCHIVE_PUBLISHED,
            BASELINE_ARCHIVED, RELEASE_REFUSED, CHECKPOINT_PINNED, RETENTION_DECIDED, CHECKPOINT_EXPIRED,
            RETENTION_REFUSED, MODEL_PUBLISHED, MODEL_SHARED, RUN_STARTED, RUN_PROGRESS, RUN_FINISHED);

    /**
     * The topics whose records the gate reads as evidence of what is stored and proven (through the ledger's
     * projections): what was built, sealed or published, what was uploaded, and what a re-read found. The gate waits
     * for the ledger to have stored each of them up to the end offsets seen when a request arrived, and a dead letter
     * on one of their dead-letter topics about an asset counts against that asset's release.
     */
    public static final List<String> EVIDENCE = List.of(OBJECT_UPLOADED, OBJECT_VERIFIED, DATASET_SEALED,
            CHECKPOINT_PUBLISHED, SHARD_BUILT, BASELINE_ARCHIVED);

    private Topics() {
    }

    /** @return the dead-letter topic of {@code topic}: {@code <topic>.dlq} */
    public static String dlq(String topic) {
        return topic + ".dlq";
    }

    /** @return the CloudEvents {@code type} of events on {@code topic}: {@code io.stowage.<topic>.v1} */
    public static String cloudEventType(String topic) {
        return "io.stowage." + topic + ".v1";
    }
}
