package io.stowage.cli.platform;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Narrows the stack's environment to what one service may hold (least privilege): store settings and
 * credentials ({@code STOWAGE_STORE_*}) only for the services that touch the store, database settings and password
 * ({@code QUARKUS_DATASOURCE_*}) only for the ledger. Consumes the full environment of {@code StackEndpoints},
 * produces a copy without the keys the service has no right to. Pure logic.
 */
final class ServiceCredentials {
    /**
     * Services that touch the object store: the uploader writes, the verifier reads, the gatekeeper HEADs every object
     * a release relies on at decision time, the provider-adapter deletes expired checkpoint steps (retention). The
     * embedded S3 server has one identity, so the four get the same credential; its rights are narrowed per service
     * only under compose (MinIO policies; the gatekeeper uses the verifier's read-only user).
     */
    static final Set<String> STORE_SERVICES = Set.of("uploader", "verifier", "gatekeeper", "provider-adapter");
    /** The only service with a database. */
    static final Set<String> DATABASE_SERVICES = Set.of("ledger");

    private ServiceCredentials() {
    }

    /**
     * @param service a service name such as {@code gatekeeper}
     * @param env     environment variables for it, e.g. {@code StackEndpoints.environment()} plus the launcher's own
     * @return {@code env} in the same order without {@code STOWAGE_STORE_*} unless the service uses the store, and
     *         without {@code QUARKUS_DATASOURCE_*} unless it is the ledger
     */
    static Map<String, String> narrow(String service, Map<String, String> env) {
        Map<String, String> out = new LinkedHashMap<>();
        env.forEach((key, value) -> {
            boolean store = key.startsWith("STOWAGE_STORE_");
            boolean database = key.startsWith("QUARKUS_DATASOURCE_");
            if ((!store || STORE_SERVICES.contains(service)) && (!database || DATABASE_SERVICES.contains(service))) {
                out.put(key, value);
            }
        });
        return out;
    }
}
