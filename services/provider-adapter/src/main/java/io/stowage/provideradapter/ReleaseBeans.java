package io.stowage.provideradapter;

import io.stowage.events.ProtectedRoots;
import io.stowage.provideradapter.domain.ReleaseHandler;
import io.stowage.provideradapter.provider.LocalDiskProvider;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Clock;
import java.util.List;

/** Produces the framework-free release handler on the local-disk provider from configuration. */
@ApplicationScoped
public class ReleaseBeans {

    /** @return the handler deleting local directories, with {@code stowage.gate.protected-roots} and the UTC clock */
    @Produces
    @ApplicationScoped
    ReleaseHandler releaseHandler(ProviderAdapterConfig config) {
        ProtectedRoots roots = ProtectedRoots.parse(config.protectedRoots().orElse(List.of()));
        return new ReleaseHandler(new LocalDiskProvider(roots), Clock.systemUTC());
    }
}
