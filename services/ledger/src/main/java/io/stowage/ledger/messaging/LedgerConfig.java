package io.stowage.ledger.messaging;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** The ledger's own settings, under {@code stowage.ledger.}. */
@ConfigMapping(prefix = "stowage.ledger")
public interface LedgerConfig {

    /** How storing an event is retried while PostgreSQL fails. */
    StoreRetry storeRetry();

    /** Retry of one record's transaction with exponential backoff. */
    interface StoreRetry {
        /** Retries after the first attempt; then a main-topic record is dead-lettered and the dead-letter channel stops. */
        @WithDefault("20")
        int maxRetries();

        /** Wait before the first retry. */
        @WithDefault("PT0.2S")
        Duration initialBackoff();

        /** Longest wait between two retries. */
        @WithDefault("PT30S")
        Duration maxBackoff();

        /**
         * Longest one attempt (one transaction) may take before it counts as failed and is retried: an attempt whose
         * connection neither answers nor breaks (a server that died without a reset) must not hold the ledger forever.
         */
        @WithDefault("PT60S")
        Duration attemptTimeout();
    }
}
