package io.stowage.ledger.domain;

import java.time.Instant;

/**
 * One refused release request as the ledger keeps it (from {@code release.refused}) and serves it on
 * {@code GET /api/refusals}. No token and no hash: {@code tokenName} is the configured name of a known token.
 *
 * @param eventId   the release.refused event's id
 * @param refusalId the refusal's own id (its correlation id)
 * @param time      when the service refused (its clock)
 * @param service   which service refused ({@code gatekeeper}, {@code provider-adapter})
 * @param method    HTTP method
 * @param path      HTTP path that was asked for
 * @param status    401 or 403
 * @param reason    {@code missing-token}, {@code unknown-token} or {@code insufficient-role}
 * @param tokenName the known token's name; null for 401
 * @param tokenRole the known token's role; null for 401
 * @param remote    the client's address; null when unknown
 */
public record RefusalRecord(String eventId, String refusalId, Instant time, String service, String method, String path,
                            int status, String reason, String tokenName, String tokenRole, String remote) {
}
