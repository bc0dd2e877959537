package io.stowage.provideradapter.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.common.annotation.Blocking;
import io.stowage.provideradapter.domain.resource.ManagedPod;
import io.stowage.provideradapter.domain.resource.PodSpec;
import io.stowage.provideradapter.domain.resource.ResourceStore;
import io.stowage.provideradapter.domain.lifecycle.PodLifecycle;
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
 * {@code /api/pods}: create a pod (201; pod.created sent), list and read records, and
 * {@code POST /api/pods/{id}/terminate} (200; pod.terminated sent, nothing when already terminated). Errors as
 * {@link VolumeResource}.
 */
@Path("/api/pods")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Roles.READER)
public class PodResource {
    private final PodLifecycle lifecycle;
    private final ResourceStore store;
    private final EventPublisher sender;
    private final Clock clock = Clock.systemUTC();

    PodResource(PodLifecycle lifecycle, ResourceStore store, EventPublisher sender) {
        this.lifecycle = lifecycle;
        this.store = store;
        this.sender = sender;
    }

    /** @return 201 with the {@link ManagedPod} */
    @RolesAllowed(Roles.OPERATOR)
    @POST
    public Response create(PodRequest request) {
        PodSpec spec;
        try {
            spec = new PodSpec(request.name(), request.imageName(), request.gpuTypeId(), request.gpuCount(),
                    request.costPerHourUsd() == null ? BigDecimal.ZERO : request.costPerHourUsd(), request.volumeId(),
                    Duration.ofSeconds(request.ttlSeconds()), request.capUsd(), request.runId());
        } catch (IllegalArgumentException e) {
            return Errors.of(400, e.getMessage());
        }
        return Errors.answer(lifecycle.create(spec, clock.instant()), sender, 201);
    }

    /** @return every pod record, terminated ones included */
    @GET
    public List<ManagedPod> list() {
        return store.pods();
    }

    /** @return 200 with the terminated pod, 404 when unknown */
    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("/{id}/terminate")
    public Response terminate(@PathParam("id") String id) {
        if (store.pod(id).isEmpty()) {
            return Errors.of(404, "unknown pod " + id);
        }
        return Errors.answer(lifecycle.terminate(id, "operator", clock.instant()), sender, 200);
    }

    /** The body of {@code POST /api/pods}; costPerHourUsd is what the local provider records (RunPod reports its own). */
    public record PodRequest(String name, String imageName, String gpuTypeId, int gpuCount, BigDecimal costPerHourUsd,
                             String volumeId, long ttlSeconds, BigDecimal capUsd, String runId) {
    }
}
