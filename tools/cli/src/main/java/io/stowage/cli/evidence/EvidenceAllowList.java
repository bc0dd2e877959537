package io.stowage.cli.evidence;

import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the ledger's answer for one asset ({@code GET /api/assets?id=}) into its published form by copying only the
 * fields {@link EvidenceExport} names: asset id, kind, sealed, key checkpoint, manifest SHA-256; per object the
 * logical store, key, kind, bytes, SHA-256 and the newest HEAD and FULL_READ results with their times. Everything
 * else the ledger answers is dropped on purpose, whatever it holds: the bucket (a private bucket's name), local
 * directories and paths (a pod's layout), licence, source and provenance (free text an operator typed), upload
 * failures (error messages that may name an endpoint).
 */
public final class EvidenceAllowList {
    /** The asset kinds an export covers; runs, releases, volumes, pods and archives are not published assets. */
    public static final Set<String> KINDS = Set.of("dataset", "checkpoint", "model");

    private EvidenceAllowList() {
    }

    /**
     * @param evidence   the ledger's evidence of one asset
     * @param eventTimes event id to event time, from the ledger's {@code GET /api/events?assetId=} of the same asset
     * @return the asset's published form, objects sorted by store then key
     */
    public static EvidenceExport.Asset asset(AssetEvidence evidence, Map<String, Instant> eventTimes) {
        List<EvidenceExport.StoredObject> objects = new ArrayList<>();
        for (ObjectEvidence o : evidence.objects()) {
            objects.add(object(o, eventTimes));
        }
        objects.sort(Comparator.comparing(EvidenceExport.StoredObject::store).thenComparing(EvidenceExport.StoredObject::key));
        return new EvidenceExport.Asset(evidence.assetId(), evidence.kind(), evidence.sealed(), evidence.keyCheckpoint(),
                evidence.manifestSha256(), List.copyOf(objects));
    }

    private static EvidenceExport.StoredObject object(ObjectEvidence o, Map<String, Instant> eventTimes) {
        List<EvidenceExport.Verification> verifications = new ArrayList<>();
        add(verifications, "HEAD", o.headResult(), o.headEventId(), eventTimes);
        add(verifications, "FULL_READ", o.fullReadResult(), o.fullReadEventId(), eventTimes);
        return new EvidenceExport.StoredObject(o.store(), o.key(), o.kind() == null ? null : o.kind().name(), o.bytes(),
                o.sha256(), List.copyOf(verifications));
    }

    private static void add(List<EvidenceExport.Verification> to, String method, VerifyResult result, String eventId,
                            Map<String, Instant> eventTimes) {
        if (result != null) {
            to.add(new EvidenceExport.Verification(method, result.name(), eventId == null ? null : eventTimes.get(eventId),
                    eventId));
        }
    }
}
