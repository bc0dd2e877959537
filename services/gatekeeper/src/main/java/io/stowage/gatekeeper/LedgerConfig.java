package io.stowage.gatekeeper;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Where the ledger's HTTP API is: {@code stowage.ledger.url} (docs/design/contract.md). */
@ConfigMapping(prefix = "stowage.ledger")
public interface LedgerConfig {
    /** Base URL of the ledger HTTP API. */
    @WithDefault("http://127.0.0.1:8086")
    String url();
}
