package io.stowage.gatekeeper.domain;

import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.DeadLetterNote;
import io.stowage.events.ledger.ObjectEvidence;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Checks one asset's object evidence from the ledger against the entries of its local manifest:
 * conditions 1 (primary copy, HEAD OK), 2 (no bad verification anywhere, and a full re-read OK) and
 * 4 (replica copy, HEAD OK), and records the ledger event ids it relied on (upload, HEAD, full read)
 * as each condition's evidence. Keeps the objects it relied on ({@link #reliedOn()}) for the gate's own look at the
 * stores at decision time ({@link StoreChecks}).
 */
final class ObjectChecks {
    static final String PRIMARY = "primary";
    static final String REPLICA = "replica";

    private final Findings findings;
    private final Set<StoreLook.StoredObject> relied = new LinkedHashSet<>();
    /** asset id to the objects whose newest full read is OK, for {@link #requireFullReadStillStored(Set)} */
    private final Map<String, List<StoreLook.StoredObject>> fullReads = new LinkedHashMap<>();

    ObjectChecks(Findings findings) {
        this.findings = findings;
    }

    /** @return every object whose ledger evidence a condition relied on, to be looked at in its store */
    Set<StoreLook.StoredObject> reliedOn() {
        return relied;
    }

    /**
     * Condition 1: a primary object with the same key, bytes and SHA-256 whose newest HEAD is OK.
     *
     * @return the event ids of the object that proves it (upload, HEAD), empty when it failed
     */
    List<String> requirePrimary(AssetEvidence asset, String key, long bytes, String sha256) {
        List<ObjectEvidence> atKey = atKey(asset, PRIMARY, key);
        if (atKey.isEmpty()) {
            findings.fail(GateCheck.OBJECT_MISSING, key);
            return List.of();
        }
        if (atKey.stream().noneMatch(o -> sameContent(o, bytes, sha256))) {
            findings.fail(GateCheck.OBJECT_MISMATCH, key);
            atKey.forEach(o -> proveUploadAndHead(1, o));
            return List.of();
        }
        ObjectEvidence verified = atKey.stream()
                .filter(o -> sameContent(o, bytes, sha256) && o.headResult() == VerifyResult.OK).findFirst().orElse(null);
        if (verified == null) {
            findings.fail(GateCheck.HEAD_NOT_OK, key);
            atKey.forEach(o -> proveUploadAndHead(1, o));
            return List.of();
        }
        proveUploadAndHead(1, verified);
        relied.add(new StoreLook.StoredObject(PRIMARY, key, bytes, sha256));
        return ids(verified);
    }

    /** Condition 4: a replica object with the same key, bytes and SHA-256 whose newest HEAD is OK. */
    void requireReplica(AssetEvidence asset, String key, long bytes, String sha256) {
        ObjectEvidence verified = atKey(asset, REPLICA, key).stream()
                .filter(o -> sameContent(o, bytes, sha256) && o.headResult() == VerifyResult.OK).findFirst().orElse(null);
        if (verified == null) {
            findings.fail(GateCheck.NO_REPLICA_COPY, key);
        } else {
            proveUploadAndHead(4, verified);
            relied.add(new StoreLook.StoredObject(REPLICA, key, bytes, sha256));
        }
    }

    /**
     * Condition 2, first half: no object of the asset, in any store, has a newest HEAD or FULL_READ result of
     * MISMATCH, MISSING or ERROR. One good re-read never outweighs a bad one: each bad result is a failure of its
     * own, named by key, store, method, result and the ledger event id that gave it. The ledger keeps only the
     * newest result per method of the object's current content (key, bytes, SHA-256), so a later full read OK of
     * the same content replaces a full-read MISMATCH, and a later HEAD OK replaces a bad HEAD.
     */
    void requireNoBadEvidence(AssetEvidence asset) {
        for (ObjectEvidence o : objects(asset)) {
            badResult(o, "HEAD", o.headResult(), o.headEventId());
            badResult(o, "FULL_READ", o.fullReadResult(), o.fullReadEventId());
        }
        requireNoDeadLetter(asset);
    }

    /**
     * Condition 2, also: no dead letter about the asset on an evidence topic that the ledger still counts (a record
     * about it that was never stored as evidence, e.g. an {@code object.verified} that did not decode: it may have been
     * a MISMATCH, so the newest result the ledger holds may not be the newest there was). The ledger stops counting it
     * once every object of the asset was re-read in full after it. Each is a failure naming its topic, event id and
     * reason.
     */
    private void requireNoDeadLetter(AssetEvidence asset) {
        if (asset.deadLetters() == null) {
            return;
        }
        for (DeadLetterNote dead : asset.deadLetters()) {
            findings.fail(GateCheck.BAD_EVIDENCE, asset.assetId() + ": dead letter on " + dead.topic() + " (event "
                    + dead.eventId() + (dead.reason() == null ? "" : ": " + dead.reason()) + "), not outweighed by a "
                    + "full read of every object since");
            findings.prove(2, dead.eventId());
        }
    }

    private void badResult(ObjectEvidence o, String method, VerifyResult result, String eventId) {
        if (result == null || result == VerifyResult.OK) {
            return;
        }
        findings.fail(GateCheck.BAD_EVIDENCE, o.key() + " in " + o.store() + ": " + method + " " + result
                + " (event " + (eventId == null ? "unknown" : eventId) + ")");
        findings.prove(2, eventId);
    }

    /** Condition 2, second half: at least one SHARD, CHECKPOINT_FILE or MODEL_FILE object whose newest FULL_READ is OK. */
    void requireFullRead(AssetEvidence asset) {
        List<ObjectEvidence> data = objects(asset).stream()
                .filter(o -> o.kind() == ObjectKind.SHARD || o.kind() == ObjectKind.CHECKPOINT_FILE
                        || o.kind() == ObjectKind.MODEL_FILE).toList();
        List<ObjectEvidence> reRead = data.stream().filter(o -> o.fullReadResult() == VerifyResult.OK).toList();
        if (reRead.isEmpty()) {
            findings.fail(GateCheck.NO_FULL_READ, asset.assetId());
            data.forEach(o -> findings.prove(2, o.fullReadEventId()));
            return;
        }
        reRead.forEach(o -> findings.prove(2, o.fullReadEventId()));
        fullReads.merge(asset.assetId(), reRead.stream()
                .map(o -> new StoreLook.StoredObject(o.store(), o.key(), o.bytes(), o.sha256())).toList(),
                (a, b) -> Stream.concat(a.stream(), b.stream()).toList());
    }

    /** @return every object whose newest full read OK {@link #requireFullRead} counted, over all assets */
    Set<StoreLook.StoredObject> fullyRead() {
        Set<StoreLook.StoredObject> all = new java.util.LinkedHashSet<>();
        fullReads.values().forEach(all::addAll);
        return all;
    }

    /**
     * Condition 2 at decision time: a full read OK counts only while its object is still in its store as it was read.
     * For each asset whose full reads {@link #requireFullRead} accepted, the objects in {@code notAsStored} (gone,
     * changed or not seen at decision time, from {@link StoreChecks#check}) no longer count; when none is left the
     * asset fails {@link GateCheck#NO_FULL_READ}, otherwise condition 2 notes how many count and how many no longer do.
     *
     * @param notAsStored objects the gate's HEAD at decision time did not find as the manifest names them
     */
    void requireFullReadStillStored(Set<StoreLook.StoredObject> notAsStored) {
        Set<String> lostKeys = new java.util.HashSet<>();
        notAsStored.forEach(o -> lostKeys.add(o.store() + "\n" + o.key()));
        fullReads.forEach((assetId, reRead) -> {
            long stillStored = reRead.stream().filter(o -> !lostKeys.contains(o.store() + "\n" + o.key())).count();
            long lost = reRead.size() - stillStored;
            if (stillStored == 0) {
                findings.fail(GateCheck.NO_FULL_READ, assetId + " (the " + lost + " object(s) re-read in full with OK"
                        + " are gone, changed or not seen in their store at decision time)");
            } else {
                findings.note(2, stillStored + " object(s) of " + assetId + " re-read in full with OK"
                        + (lost == 0 ? "" : "; " + lost + " other(s) re-read OK are gone, changed or not seen in their"
                        + " store at decision time and no longer count"));
            }
        });
    }

    /** @return the local path recorded for the primary object at {@code key}, or null */
    String localPathOf(AssetEvidence asset, String key) {
        return atKey(asset, PRIMARY, key).stream().map(ObjectEvidence::localPath)
                .filter(Objects::nonNull).findFirst().orElse(null);
    }

    private void proveUploadAndHead(int condition, ObjectEvidence object) {
        findings.prove(condition, object.uploadedEventId());
        findings.prove(condition, object.headEventId());
    }

    private static List<String> ids(ObjectEvidence object) {
        return Stream.of(object.uploadedEventId(), object.headEventId()).filter(Objects::nonNull).toList();
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
