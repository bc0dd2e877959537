package io.stowage.gatekeeper.domain;

import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;

import java.util.List;
import java.util.Objects;

/**
 * Checks one asset's object evidence from the ledger against the entries of its local manifest:
 * conditions 1 (primary copy, HEAD OK), 2 (a full re-read OK) and 4 (replica copy, HEAD OK).
 */
final class ObjectChecks {
    static final String PRIMARY = "primary";
    static final String REPLICA = "replica";

    private final Findings findings;

    ObjectChecks(Findings findings) {
        this.findings = findings;
    }

    /** Condition 1: a primary object with the same key, bytes and SHA-256 whose newest HEAD is OK. */
    void requirePrimary(AssetEvidence asset, String key, long bytes, String sha256) {
        List<ObjectEvidence> atKey = atKey(asset, PRIMARY, key);
        if (atKey.isEmpty()) {
            findings.fail(GateCheck.OBJECT_MISSING, key);
        } else if (atKey.stream().noneMatch(o -> sameContent(o, bytes, sha256))) {
            findings.fail(GateCheck.OBJECT_MISMATCH, key);
        } else if (atKey.stream().noneMatch(o -> sameContent(o, bytes, sha256) && o.headResult() == VerifyResult.OK)) {
            findings.fail(GateCheck.HEAD_NOT_OK, key);
        }
    }

    /** Condition 4: a replica object with the same key, bytes and SHA-256 whose newest HEAD is OK. */
    void requireReplica(AssetEvidence asset, String key, long bytes, String sha256) {
        boolean verified = atKey(asset, REPLICA, key).stream()
                .anyMatch(o -> sameContent(o, bytes, sha256) && o.headResult() == VerifyResult.OK);
        if (!verified) {
            findings.fail(GateCheck.NO_REPLICA_COPY, key);
        }
    }

    /** Condition 2: at least one SHARD or CHECKPOINT_FILE object whose newest FULL_READ is OK. */
    void requireFullRead(AssetEvidence asset) {
        boolean reRead = objects(asset).stream()
                .filter(o -> o.kind() == ObjectKind.SHARD || o.kind() == ObjectKind.CHECKPOINT_FILE)
                .anyMatch(o -> o.fullReadResult() == VerifyResult.OK);
        if (!reRead) {
            findings.fail(GateCheck.NO_FULL_READ, asset.assetId());
        }
    }

    /** @return the local path recorded for the primary object at {@code key}, or null */
    String localPathOf(AssetEvidence asset, String key) {
        return atKey(asset, PRIMARY, key).stream().map(ObjectEvidence::localPath)
                .filter(Objects::nonNull).findFirst().orElse(null);
    }

    private static List<ObjectEvidence> atKey(AssetEvidence asset, String store, String key) {
        return objects(asset).stream().filter(o -> store.equals(o.store()) && key.equals(o.key())).toList();
    }

    private static List<ObjectEvidence> objects(AssetEvidence asset) {
        return asset.objects() == null ? List.of() : asset.objects();
    }

    private static boolean sameContent(ObjectEvidence object, long bytes, String sha256) {
        return object.bytes() == bytes && sha256 != null && sha256.equals(object.sha256());
    }
}
