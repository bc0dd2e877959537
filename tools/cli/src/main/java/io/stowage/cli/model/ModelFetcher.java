package io.stowage.cli.model;

import io.stowage.cli.CliException;
import io.stowage.cli.checkpoint.CheckpointFetcher;
import io.stowage.cli.checkpoint.StoredCheckpoint;
import io.stowage.events.AssetIds;
import io.stowage.events.EventCodec;
import io.stowage.events.InvalidEventException;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.events.manifest.ModelManifest;
import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.StoreException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The Java API for loading code and {@code stowage model fetch}: consumes one stored model revision (its model
 * manifest at {@code models/<model>/<revision>/manifest.json}, read and checked against the SHA-256 the uploader stored
 * with it) and produces its files in a local directory through {@link CheckpointFetcher#download}: several downloads
 * at once, each SHA-256 recomputed while streaming into a temporary name, every file renamed into place only when all
 * of them match.
 *
 * <pre>{@code
 * try (PrimaryStore store = new PrimaryStore(session.stack())) {
 *     ModelFetcher.Fetched model = new ModelFetcher(store).fetch("en-us", "r1", Path.of("/scratch/en-us"));
 *     Path weights = model.dir().resolve("en-us/mdef");
 * }
 * }</pre>
 */
public final class ModelFetcher {
    /** Downloads at once unless told otherwise. */
    public static final int DEFAULT_PARALLEL = 4;

    /** What the fetcher reads: a HEAD (for the manifest's SHA-256) and an object's bytes, plus a listing. */
    public interface Source extends CheckpointFetcher.Source, ModelRevisions.Store {
    }

    private final Source source;
    private final int parallel;

    public ModelFetcher(Source source) {
        this(source, DEFAULT_PARALLEL);
    }

    /** @param parallel downloads at once, at least 1 */
    public ModelFetcher(Source source, int parallel) {
        this.source = source;
        this.parallel = Math.max(1, parallel);
    }

    /**
     * A fetched revision.
     *
     * @param manifest the model manifest (licence, source, files)
     * @param dir      the directory the files were written into, absolute
     */
    public record Fetched(ModelManifest manifest, Path dir) {
    }

    /**
     * @param to a missing or empty directory (created only once the manifest was read and checked)
     * @throws CliException exit 2 for a bad name or a non-empty {@code to}; exit 1 when the revision is not stored, its
     *                      manifest does not match its stored SHA-256 or does not describe it, the store fails, or a
     *                      file's SHA-256 differs from its key (then no file is left behind, nor a directory this call
     *                      created)
     */
    public Fetched fetch(String model, String revision, Path to) {
        try {
            AssetIds.model(model, revision);
        } catch (InvalidEventException e) {
            throw new CliException(CliException.USAGE, e.getMessage());
        }
        Path dir = to.toAbsolutePath().normalize();
        CheckpointFetcher.requireEmptyOrMissing(dir);
        ModelManifest manifest = manifest(model, revision);
        List<StoredCheckpoint.StoredFile> files = manifest.files().stream().map(f -> stored(model, revision, f)).toList();
        new CheckpointFetcher(source).downloadInto(files, dir, parallel);
        return new Fetched(manifest, dir);
    }

    /**
     * @return the stored model manifest, its bytes checked against the SHA-256 stored with it
     * @throws CliException exit 1 when it is absent, altered or not this revision's
     */
    public ModelManifest manifest(String model, String revision) {
        String key = ObjectKeys.modelManifest(model, revision);
        try {
            Optional<ObjectHead> head = source.head(key);
            if (head.isEmpty()) {
                throw new CliException(CliException.FAILED, "no model revision " + AssetIds.model(model, revision)
                        + " in the primary store (" + key + " is absent)");
            }
            byte[] bytes;
            try (InputStream in = source.open(key)) {
                bytes = in.readAllBytes();
            }
            if (!Sha256.of(bytes).equals(head.get().sha256())) {
                throw new CliException(CliException.FAILED, "refusing " + key + ": its bytes hash to " + Sha256.of(bytes)
                        + ", the store recorded sha256 " + head.get().sha256());
            }
            ModelManifest manifest = EventCodec.mapper().readValue(bytes, ModelManifest.class);
            if (!ModelManifest.FORMAT.equals(manifest.format()) || !model.equals(manifest.model())
                    || !revision.equals(manifest.revision()) || manifest.files() == null) {
                throw new CliException(CliException.FAILED, "refusing " + key + ": it does not describe "
                        + AssetIds.model(model, revision));
            }
            return manifest;
        } catch (ObjectNotFoundException e) {
            throw new CliException(CliException.FAILED, "no model revision " + AssetIds.model(model, revision)
                    + " in the primary store", e);
        } catch (StoreException | IOException e) {
            throw new CliException(CliException.FAILED, "cannot read " + key + ": " + e.getMessage(), e);
        }
    }

    private static StoredCheckpoint.StoredFile stored(String model, String revision, MemberEntry file) {
        try {
            return new StoredCheckpoint.StoredFile(ObjectKeys.modelFile(model, revision, file.sha256(), file.path()),
                    file.sha256(), file.path());
        } catch (InvalidEventException | NullPointerException e) {
            throw new CliException(CliException.FAILED, "the stored model manifest names a file that cannot be"
                    + " fetched: " + file.path() + ": " + e.getMessage());
        }
    }
}
