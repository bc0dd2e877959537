package io.stowage.cli.checkpoint;

import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;
import io.stowage.events.InvalidEventException;
import io.stowage.events.ObjectKeys;
import io.stowage.events.manifest.LatestCheckpoint;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.StoreException;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a run's {@code latest.json} pointer ({@link LatestCheckpoint}) from the primary store and
 * produces the {@link StoredCheckpoint} it names. A pointer is trusted only as far as it agrees with
 * the content addresses: every file's key must be the one {@link ObjectKeys#checkpointFile} gives for
 * its step, SHA-256 and path, so a damaged pointer cannot send the fetch elsewhere.
 */
final class LatestPointer {
    private static final int MAX_BYTES = 16 << 20;

    private LatestPointer() {
    }

    /**
     * @throws CliException exit 1 when there is no pointer (no step of the run was verified yet), it cannot
     *                      be read, or it is malformed
     */
    static StoredCheckpoint read(CheckpointFetcher.Source source, String experiment, String run, String key) {
        LatestCheckpoint pointer;
        try (InputStream in = source.open(key)) {
            byte[] json = in.readNBytes(MAX_BYTES);
            pointer = EventCodec.mapper().readValue(json, LatestCheckpoint.class);
        } catch (ObjectNotFoundException e) {
            throw new CliException(CliException.FAILED, "the run " + experiment + "/" + run + " has no latest step: "
                    + key + " is not in the primary store (no step of it was verified in full yet)");
        } catch (StoreException | IOException e) {
            throw new CliException(CliException.FAILED, "cannot read " + key + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
        return toCheckpoint(pointer, experiment, run, key);
    }

    static StoredCheckpoint toCheckpoint(LatestCheckpoint pointer, String experiment, String run, String key) {
        if (!LatestCheckpoint.FORMAT.equals(pointer.format()) || !experiment.equals(pointer.experiment())
                || !run.equals(pointer.run()) || pointer.files() == null || pointer.files().isEmpty()) {
            throw new CliException(CliException.FAILED, key + " is not a latest pointer of " + experiment + "/" + run);
        }
        List<StoredCheckpoint.StoredFile> files = new ArrayList<>();
        for (LatestCheckpoint.File file : pointer.files()) {
            String expected;
            try {
                expected = ObjectKeys.checkpointFile(experiment, run, pointer.step(), file.sha256(), file.path());
            } catch (InvalidEventException | NullPointerException e) {
                throw new CliException(CliException.FAILED, key + " names an invalid file " + file.path());
            }
            if (!expected.equals(file.key())) {
                throw new CliException(CliException.FAILED, key + " names " + file.key() + " for " + file.path()
                        + ", which is not its content address " + expected);
            }
            files.add(new StoredCheckpoint.StoredFile(file.key(), file.sha256(), file.path()));
        }
        List<String> keys = files.stream().map(StoredCheckpoint.StoredFile::key).toList();
        String prefix = key.replaceFirst("latest\\.json$", "");
        return StoredCheckpoint.select(prefix, keys, pointer.step()).orElseThrow(() -> new CliException(
                CliException.FAILED, key + " names no file of step " + pointer.step()));
    }
}
