package io.stowage.provideradapter.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.common.annotation.Blocking;
import io.stowage.provideradapter.domain.resource.ManagedVolume;
import io.stowage.provideradapter.domain.resource.ResourceStore;
import io.stowage.provideradapter.domain.resource.VolumeSpec;
import io.stowage.provideradapter.domain.lifecycle.LifecycleResult;
import io.stowage.provideradapter.domain.lifecycle.VolumeLifecycle;
import io.stowage.messaging.EventPublisher;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * {@code /api/volumes}: create a volume (201 with its record; volume.created sent), list and read records, and
 * {@code POST /api/volumes/{id}/release} to release it through the gate (202; the gate decides, the volume is
 * destroyed only after its directory was released). Errors: 400 bad request, 404 unknown volume, 422 the provider
 * refused, 502 the provider kept failing; each body {@code {"error": one line}}.
 */
@Path("/api/volumes")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Roles.READER)
public class VolumeResource {
    private final VolumeLifecycle lifecycle;
    private final ResourceStore store;
    private final EventPublisher sender;
    private final Clock clock = Clock.systemUTC();

    VolumeResource(VolumeLifecycle lifecycle, ResourceStore store, EventPublisher sender) {
        this.lifecycle = lifecycle;
        this.store = store;
        this.sender = sender;
    }

    /**
     * @param request sizeGb in GB (10^9 bytes), ttlSeconds (0 = none), capUsd (null = none)
     * @return 201 with the {@link ManagedVolume}
     */
    @RolesAllowed(Roles.OPERATOR)
    @POST
    public Response create(VolumeRequest request) {
        VolumeSpec spec;
        try {
            spec = new VolumeSpec(request.name(), request.purpose(), request.sizeGb(),
                    Duration.ofSeconds(request.ttlSeconds()), request.capUsd(), request.runId());
        } catch (IllegalArgumentException e) {
            return Errors.of(400, e.getMessage());
        }
        return Errors.answer(lifecycle.create(spec, clock.instant()), sender, 201);
    }

    /** @return every volume record, destroyed ones included */
    @GET
    public List<ManagedVolume> list() {
        return store.volumes();
    }

    /** @return the volume's record, 404 when unknown */
    @GET
    @Path("/{id}")
    public Response get(@PathParam("id") String id) {
        return store.volume(id).map(v -> Response.ok(v).build()).orElseGet(() -> Errors.of(404, "unknown volume " + id));
    }

    /** @return 202 with the volume as it is now (RELEASING, or DESTROYED when it held no file), 404 when unknown */
    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("/{id}/release")
    public Response release(@PathParam("id") String id) {
        if (store.volume(id).isEmpty()) {
            return Errors.of(404, "unknown volume " + id);
        }
        LifecycleResult<ManagedVolume> result = lifecycle.release(id, "operator", clock.instant());
        return Errors.answer(result, sender, 202);
    }

    /** The body of {@code POST /api/volumes}. */
    public record VolumeRequest(String name, String purpose, int sizeGb, long ttlSeconds, BigDecimal capUsd,
                                String runId) {
    }
}
