package io.stowage.stack;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/**
 * Quarkus test resource: {@code @QuarkusTestResource(StowageStackResource.class)} (or {@code @WithTestResource})
 * starts the JVM's shared stack and produces the service configuration from {@link StackEndpoints#quarkusConfig()}.
 * The stack outlives the test class and is stopped when the JVM exits.
 */
public final class StowageStackResource implements QuarkusTestResourceLifecycleManager {
    /** @return Kafka, both stores and the reactive datasource of the shared stack, as Quarkus configuration */
    @Override
    public Map<String, String> start() {
        return EmbeddedStack.shared().quarkusConfig();
    }

    /** Leaves the shared stack running for the next test class; its shutdown hook stops it. */
    @Override
    public void stop() {
        // shared for the whole JVM
    }
}
