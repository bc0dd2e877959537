package io.stowage.events;

/**
 * A release request (or another destructive request) refused at a service's HTTP API before anything was done:
 * no bearer token, an unknown one, or a token whose role is too low (docs/security/tokens.md). Produced by
 * the gatekeeper ({@code POST /api/releases}) and the provider-adapter ({@code POST /api/volumes/{id}/release},
 * pod terminate) on {@link Topics#RELEASE_REFUSED}; projected by the ledger ({@code GET /api/refusals}). Never
 * holds a token or its hash. The Kafka key is {@link AssetIds#release(String)} of the refusal id.
 *
 * @param refusalId   unique id of this refusal (also the correlation id)
 * @param service     the service that refused, e.g. {@code gatekeeper}
 * @param method      HTTP method, e.g. {@code POST}
 * @param path        request path, e.g. {@code /api/releases} or {@code /api/volumes/v-1/release}
 * @param status      401 or 403
 * @param reason      {@code missing-token}, {@code unknown-token} or {@code insufficient-role}
 * @param tokenName   who asked: the known token's configured name; null for 401
 * @param tokenRole   that token's role (e.g. {@code reader}); null for 401
 * @param remote      the client's address ({@code host:port}); null when unknown
 */
public record ReleaseRefused(EventMeta meta, String refusalId, String service, String method, String path, int status,
                             String reason, String tokenName, String tokenRole, String remote) implements StowageEvent {

    public static ReleaseRefused of(EventMeta meta, String refusalId, String service, String method, String path,
                                    int status, String reason, String tokenName, String tokenRole, String remote) {
        ReleaseRefused event = new ReleaseRefused(meta, refusalId, service, method, path, status, reason, tokenName,
                tokenRole, remote);
        event.validate();
        return event;
    }

    @Override
    public String assetId() {
        return AssetIds.release(refusalId);
    }

    @Override
    public String topic() {
        return Topics.RELEASE_REFUSED;
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("refusalId", refusalId);
        Validation.requireText("service", service);
        Validation.requireText("method", method);
        Validation.requireText("path", path);
        Validation.require(status == 401 || status == 403, "status must be 401 or 403, got " + status);
        Validation.requireText("reason", reason);
    }
}
