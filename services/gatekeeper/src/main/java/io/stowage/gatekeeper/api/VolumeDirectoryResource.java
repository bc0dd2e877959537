package io.stowage.gatekeeper.api;

import io.stowage.auth.Roles;
import io.stowage.events.ReleaseTargetPolicy;
import io.stowage.gatekeeper.GatekeeperConfig;
import io.stowage.gatekeeper.storage.VolumeDirectories;
import io.stowage.messaging.GateSettings;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/**
 * {@code GET /api/volume-directories}: the directories under {@code stowage.gatekeeper.volume-roots} that a release
 * request may name (the gate's path rule with {@code stowage.gate.protected-roots}), with files and bytes each holds
 * now; read by the operator console's "what can be freed" page. Reads the disk only, decides nothing.
 */
@Path("/api/volume-directories")
@Produces(MediaType.APPLICATION_JSON)
public class VolumeDirectoryResource {
    private final VolumeDirectories directories;

    VolumeDirectoryResource(GateSettings gate, GatekeeperConfig config) {
        this.directories = new VolumeDirectories(ReleaseTargetPolicy.of(gate.protectedRoots().orElse(List.of()),
                config.volumeRoots().orElse(List.of()), System.getProperty("user.home")));
    }

    /** @return 200 with {@code [{"path","root","files","bytes"}…]} in path order, at most 1,000 directories */
    @GET
    @RolesAllowed(Roles.READER)
    @io.smallrye.common.annotation.Blocking
    public List<VolumeDirectories.Entry> list() {
        return directories.list();
    }
}
