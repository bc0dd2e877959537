package io.stowage.cli.retention;

import io.stowage.cli.CliException;
import io.stowage.cli.checkpoint.CheckpointFetcher;
import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import io.stowage.events.manifest.LatestCheckpoint;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.StoreException;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads the step a run's {@code latest.json} names from the primary store: the step a resume would fetch, which
 * retention never expires.
 */
public final class LatestStep {
    private static final int MAX_BYTES = 16 << 20;

    private LatestStep() {
    }

    /**
     * @return the step, or null when the run has no latest.json yet
     * @throws CliException (exit 1) when the pointer cannot be read or is not a pointer of this run: retention then
     *                      refuses to plan rather than guess which step a resume would read
     */
    public static Long read(CheckpointFetcher.Source primary, String experiment, String run) {
        String key = ObjectKeys.checkpointLatest(experiment, run);
        try (InputStream in = primary.open(key)) {
            LatestCheckpoint pointer = EventCodec.mapper().readValue(in.readNBytes(MAX_BYTES), LatestCheckpoint.class);
            if (!experiment.equals(pointer.experiment()) || !run.equals(pointer.run())) {
                throw new CliException(CliException.FAILED, key + " is not a latest pointer of " + experiment + "/" + run);
            }
            return pointer.step();
        } catch (ObjectNotFoundException e) {
            return null;
        } catch (StoreException | IOException e) {
            throw new CliException(CliException.FAILED, "cannot read " + key + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
    }
}
