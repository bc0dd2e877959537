package io.stowage.ledger.messaging;

import io.smallrye.mutiny.Uni;
import io.stowage.ledger.persistence.DatabaseProbe;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Runs one database attempt and retries it with exponential backoff ({@link LedgerConfig.StoreRetry}).
 * Every attempt is subscribed on the caller's Vert.x context: Hibernate Reactive refuses to run
 * anywhere else, and Mutiny's backoff would otherwise resubscribe on a worker thread.
 */
@ApplicationScoped
public class StoreRetry {
    private static final Logger LOG = Logger.getLogger(StoreRetry.class);

    private final LedgerConfig.StoreRetry config;
    private final DatabaseProbe database;

    @Inject
    public StoreRetry(LedgerConfig config, DatabaseProbe database) {
        this.config = config.storeRetry();
        this.database = database;
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

    /**
     * Like {@link #run(Supplier)}, through database outages: once the retries are spent, the failure counts only when
     * the database answers ({@link DatabaseProbe}) and one more attempt fails as well. While the database does not
     * answer, the attempt waits {@code max-backoff} and starts over, without bound: the caller neither acks nor
     * dead-letters anything meanwhile.
     *
     * @param what names the record in the log line written at each wait, e.g. {@code event <id> type <type>}
     * @return the attempt's item; a failure only while the database answers (the record's own failure)
     */
    public <T> Uni<T> runThroughOutages(String what, Supplier<Uni<T>> attempt) {
        return throughOutages(what, attempt, Vertx.currentContext());
    }

    private <T> Uni<T> throughOutages(String what, Supplier<Uni<T>> attempt, Context context) {
        return on(context, Duration.ZERO, () -> run(attempt)).onFailure().recoverWithUni(failure -> database.answers()
                .chain(answers -> answers
                        ? on(context, Duration.ZERO, () -> run(attempt, 0)).onFailure().recoverWithUni(again ->
                                database.answers().chain(still -> still
                                        ? Uni.createFrom().<T>failure(again)
                                        : waitFor(what, again, context, attempt)))
                        : waitFor(what, failure, context, attempt)));
    }

    private <T> Uni<T> waitFor(String what, Throwable failure, Context context, Supplier<Uni<T>> attempt) {
        LOG.errorf("cannot store %s and the database does not answer: waiting %s, then trying again (not acked, not "
                + "dead-lettered): %s", what, config.maxBackoff(), failure.getMessage());
        return on(context, config.maxBackoff(), () -> throughOutages(what, attempt, context));
    }

    /** @return {@code next}, started on {@code context} after {@code delay} (directly when there is no context) */
    private static <T> Uni<T> on(Context context, Duration delay, Supplier<Uni<T>> next) {
        if (context == null) {
            return delay.isZero() ? Uni.createFrom().deferred(() -> next.get())
                    : Uni.createFrom().voidItem().onItem().delayIt().by(delay).chain(() -> next.get());
        }
        Uni<Void> there = Uni.createFrom().emitter(e -> {
            if (delay.isZero()) {
                context.runOnContext(ignored -> e.complete(null));
            } else {
                context.owner().setTimer(delay.toMillis(), id -> context.runOnContext(ignored -> e.complete(null)));
            }
        });
        return there.chain(() -> next.get());
    }
}
