package io.stowage.ledger.domain;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * A provider volume or pod as the ledger knows it (table {@code ledger_resource}).
 *
 * @param key              the asset id: {@code volume/<id>} or {@code pod/<id>}
 * @param kind             "volume" or "pod"
 * @param sizeGb           a volume's provisioned GB; 0 for a pod
 * @param costPerHourUsd   a pod's hourly price; null for a volume
 * @param state            "UNKNOWN" (only an alert seen yet), "ACTIVE", "DESTROYED" (volume), "TERMINATED" (pod)
 * @param lifetimeSeconds  from creation to end, null while live
 * @param costUsd          lifetime cost recorded at the end, null while live
 * @param lastAlertBlockers what blocked the last release, one line each
 */
public record ResourceRecord(String key, String kind, String id, String provider, String name, String purpose,
                             int sizeGb, BigDecimal costPerHourUsd, String path, String runId, Instant createdAt,
                             Instant expiresAt, BigDecimal capUsd, String state, Instant endedAt,
                             Long lifetimeSeconds, BigDecimal costUsd, String endReason, String releaseRequestId,
                             int alertCount, String lastAlertCode, String lastAlertDetail,
                             List<String> lastAlertBlockers) {

    /** @return a row for a resource first seen through an event other than its creation */
    static ResourceRecord unknown(String key, String kind, String id) {
        return new ResourceRecord(key, kind, id, null, null, null, 0, null, null, null, null, null, null, "UNKNOWN",
                null, null, null, null, null, 0, null, null, List.of());
    }
}
