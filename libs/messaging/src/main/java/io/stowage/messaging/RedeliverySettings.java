package io.stowage.messaging;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** Configuration {@code stowage.redelivery.*} of every service's consumers ({@link IncomingEvents}, docs/design/contract.md). */
@ConfigMapping(prefix = "stowage.redelivery")
public interface RedeliverySettings {
    /** Most attempts at a transiently failed record, the first included, before it is dead-lettered. */
    @WithDefault("5")
    int attempts();

    /** Pause after the first failed attempt; doubled after each further one. */
    @WithDefault("PT1S")
    Duration initialBackoff();

    /** Longest pause between two attempts. */
    @WithDefault("PT30S")
    Duration maxBackoff();

    /** @return these settings as a {@link Redelivery} */
    default Redelivery redelivery() {
        return new Redelivery(attempts(), initialBackoff(), maxBackoff());
    }
}
