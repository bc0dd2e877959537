package io.stowage.ledger.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.common.annotation.Blocking;
import io.stowage.ledger.domain.LedgerLag;
import io.stowage.ledger.messaging.ConsumerLag;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

/** Serves {@code GET /api/lag}: the ledger consumer group's committed offset against the end offset, per partition. */
@Path("/api/lag")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.READER)
public class LagResource {
    private final ConsumerLag lag;

    @Inject
    public LagResource(ConsumerLag lag) {
        this.lag = lag;
    }

    /**
     * @return 200 with {@code {"group","total","caughtUp","missing":[topic…],"partitions":[{"topic","partition","consumed",
     *         "end","lag"}…]}} over every audit topic and dead-letter topic, {@code missing} naming those the broker does
     *         not have (then {@code caughtUp} is false); 503 when Kafka does not answer (a caller that gates on
     *         it must then fail closed)
     */
    @GET
    @Blocking
    public RestResponse<LedgerLag> lag() {
        try {
            return RestResponse.ok(lag.read());
        } catch (IllegalStateException e) {
            return RestResponse.status(RestResponse.Status.SERVICE_UNAVAILABLE);
        }
    }
}
