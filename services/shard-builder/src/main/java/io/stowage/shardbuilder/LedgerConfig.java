package io.stowage.shardbuilder;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** Where the ledger's HTTP API is ({@code stowage.ledger.url}, env {@code STOWAGE_LEDGER_URL}) and how long to wait for it. */
@ConfigMapping(prefix = "stowage.ledger")
public interface LedgerConfig {
    /** Base URL of the ledger HTTP API, asked whether a revision is already sealed before one is sealed. */
    @WithDefault("http://127.0.0.1:8086")
    String url();

    /** Connect and read timeout of one ledger call; past it the revision is refused (the ledger is unreachable). */
    @WithDefault("10s")
    Duration timeout();
}
