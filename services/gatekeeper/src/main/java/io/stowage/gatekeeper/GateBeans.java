package io.stowage.gatekeeper;

import io.stowage.events.ProtectedRoots;
import io.stowage.gatekeeper.domain.GateEvaluator;
import io.stowage.gatekeeper.storage.FileSystemTree;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Clock;
import java.util.List;

/** Produces the framework-free gate objects from configuration: the evaluator on the real disk and the clock. */
@ApplicationScoped
public class GateBeans {

    /** @return the gate over the real filesystem with {@code stowage.gate.protected-roots} */
    @Produces
    @ApplicationScoped
    GateEvaluator gateEvaluator(GateConfig config) {
        return new GateEvaluator(ProtectedRoots.parse(config.protectedRoots().orElse(List.of())), new FileSystemTree());
    }

    /** @return UTC wall clock for event times */
    @Produces
    @ApplicationScoped
    Clock clock() {
        return Clock.systemUTC();
    }
}
