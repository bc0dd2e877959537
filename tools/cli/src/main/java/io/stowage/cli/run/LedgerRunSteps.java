package io.stowage.cli.run;

import io.stowage.cli.checkpoint.CheckpointFetcher;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.AssetIds;

import java.time.Duration;
import java.util.Optional;

/**
 * A run's verified steps as the ledger (upload and verification of each step's files) and the primary store (the
 * run's {@code latest.json}) show them.
 */
public final class LedgerRunSteps implements RunStopper.Steps {
    private final LedgerClient ledger;
    private final PrimaryStore store;
    private final String experiment;
    private final String run;

    public LedgerRunSteps(LedgerClient ledger, PrimaryStore store, String experiment, String run) {
        this.ledger = ledger;
        this.store = store;
        this.experiment = experiment;
        this.run = run;
    }

    @Override
    public void awaitVerified(long step, int files, Duration timeout) {
        ledger.awaitVerified(AssetIds.checkpoint(experiment, run, step), files, timeout);
    }

    @Override
    public Optional<Long> latestVerified() {
        return new CheckpointFetcher(store).latestStep(experiment, run);
    }
}
