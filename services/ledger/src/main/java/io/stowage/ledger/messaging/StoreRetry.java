package io.stowage.ledger.messaging;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.function.Supplier;

/**
 * Runs one database attempt and retries it with exponential backoff ({@link LedgerConfig.StoreRetry}).
 * Every attempt is subscribed on the caller's Vert.x context: Hibernate Reactive refuses to run
 * anywhere else, and Mutiny's backoff would otherwise resubscribe on a worker thread.
 */
@ApplicationScoped
public class StoreRetry {
    private final LedgerConfig.StoreRetry config;

    @Inject
    public StoreRetry(LedgerConfig config) {
        this.config = config.storeRetry();
    }

    /** @return the attempt's item, or its last failure once the configured retries are spent */
    public <T> Uni<T> run(Supplier<Uni<T>> attempt) {
        return run(attempt, config.maxRetries());
    }

    /** @return the attempt's item, or its last failure once {@code maxRetries} retries are spent */
    public <T> Uni<T> run(Supplier<Uni<T>> attempt, int maxRetries) {
        Context context = Vertx.currentContext();
        Uni<T> once = Uni.createFrom().deferred(attempt::get);
        if (context != null) {
            once = once.runSubscriptionOn(command -> context.runOnContext(ignored -> command.run()));
        }
        return once.onFailure().retry()
                .withBackOff(config.initialBackoff(), config.maxBackoff())
                .atMost(maxRetries);
    }
}
