package io.stowage.cli.evidence;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;

import java.time.Instant;
import java.util.List;

/**
 * The published evidence, {@code evidence.json} (docs/evidence-export.md): what the ledger proves about stored
 * assets, and nothing that would let a reader reach the store. Every field is listed here on purpose; a field the
 * ledger adds later (or a bucket, an endpoint, a local path it answers today) has no place in these records and
 * is never written.
 *
 * @param format      always {@value #FORMAT}; a reader refuses a format it does not know
 * @param generatedAt when the export read the ledger (UTC)
 * @param assets      the exported assets, asset ids ascending
 */
public record EvidenceExport(String format, Instant generatedAt, List<Asset> assets) {
    /** The format name and version of this shape; a new version only adds fields. */
    public static final String FORMAT = "stowage-evidence/1";

    /**
     * One asset: a dataset revision, a checkpoint step or a model revision.
     *
     * @param assetId        e.g. {@code dataset/speech/r1}, {@code checkpoint/exp/run-1/00000150}, {@code model/m/r1}
     * @param kind           "dataset", "checkpoint" or "model"
     * @param sealed         true once the ledger saw the asset's dataset.sealed, checkpoint.published or model.published
     * @param keyCheckpoint  true for a key checkpoint (it needs a second verified copy)
     * @param manifestSha256 SHA-256 of the asset's manifest as published, null when the ledger has none
     * @param objects        its objects in every store, store then key ascending
     */
    public record Asset(String assetId, String kind, boolean sealed, boolean keyCheckpoint, String manifestSha256,
                        List<StoredObject> objects) {
        /** @return the bytes of all its objects */
        public long bytes() {
            return objects.stream().mapToLong(StoredObject::bytes).sum();
        }
    }

    /**
     * One object in one store.
     *
     * @param store         the logical store, "primary" or "replica" (never the bucket)
     * @param key           the content-addressed object key, e.g. {@code datasets/speech/r1/shards/<sha256>.tar.zst}
     * @param kind          the object's kind as the ledger records it (SHARD, MEMBER_MANIFEST, CHECKPOINT_FILE, …)
     * @param bytes         its size in bytes
     * @param sha256        its SHA-256, lowercase hex
     * @param verifications the newest result of each verification method the ledger holds (HEAD, FULL_READ)
     */
    public record StoredObject(String store, String key, String kind, long bytes, String sha256,
                               List<Verification> verifications) {
    }

    /**
     * The newest verification of one method.
     *
     * @param method  "HEAD" (size and metadata) or "FULL_READ" (the whole object re-read and its SHA-256 recomputed)
     * @param result  OK, MISMATCH, MISSING or ERROR
     * @param time    the time of the object.verified event, null when the ledger lists no time for it
     * @param eventId that event's id in the ledger, null when unknown
     */
    public record Verification(String method, String result, Instant time, String eventId) {
    }

    /** @return the number of objects over all assets */
    public int objectCount() {
        return assets.stream().mapToInt(a -> a.objects().size()).sum();
    }

    /** @return the bytes over all assets */
    public long bytes() {
        return assets.stream().mapToLong(Asset::bytes).sum();
    }

    /**
     * @return this document as indented JSON (UTF-8 text, ending with a newline)
     * @throws CliException (exit 1) when Jackson cannot encode it
     */
    public String toJson() {
        try {
            return EventCodec.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(this) + "\n";
        } catch (JsonProcessingException e) {
            throw new CliException(CliException.FAILED, "cannot encode evidence.json: " + e.getMessage(), e);
        }
    }
}
