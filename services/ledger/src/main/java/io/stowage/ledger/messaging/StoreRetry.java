package io.stowage.ledger.messaging;

import io.smallrye.mutiny.Uni;
import io.stowage.ledger.persistence.DatabaseProbe;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Runs one database attempt and retries it with exponential backoff ({@link LedgerConfig.StoreRetry}).
 * <p>
 * Every attempt runs on a <em>new</em> duplicated Vert.x context of the caller's event loop, flagged safe: Hibernate
 * Reactive refuses to run anywhere else, Mutiny's backoff would otherwise resubscribe on a worker thread, and Panache
 * keeps its session in the context's locals. An attempt that failed half-way (a connection reset while the
 * transaction began, rolled back or closed) can leave its session there, open and bound to a dead connection; an
 * attempt on the same context would reuse it and fail the same way for ever, although the database is back. A fresh
 * context per attempt starts every attempt with a fresh session. An attempt that neither succeeds nor fails within
 * {@code attempt-timeout} counts as failed.
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
        Uni<T> once = Uni.createFrom().deferred(() -> {
            Uni<T> work = Uni.createFrom().deferred(attempt::get);
            if (context != null) {
                Context fresh = isolated(context);
                work = work.runSubscriptionOn(command -> fresh.runOnContext(ignored -> command.run()));
            }
            return work.ifNoItem().after(config.attemptTimeout())
                    .failWith(() -> new TimeoutException("no answer within " + config.attemptTimeout()));
        });
        AtomicInteger failures = new AtomicInteger();
        return once.onFailure().invoke(f -> LOG.warnf("database attempt %d failed (%d retries allowed): %s",
                        failures.incrementAndGet(), maxRetries, f.toString()))
                .onFailure().retry()
                .withBackOff(config.initialBackoff(), config.maxBackoff())
                .atMost(maxRetries);
    }

    /**
     * @return a new duplicated context of {@code context}'s event loop with empty locals, flagged safe for Hibernate
     *         Reactive (the caller's own context is never reused, so nothing an earlier attempt left there is seen)
     */
    static Context isolated(Context context) {
        Context fresh = VertxContext.createNewDuplicatedContext(context);
        VertxContextSafetyToggle.setContextSafe(fresh, true);
        return fresh;
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
