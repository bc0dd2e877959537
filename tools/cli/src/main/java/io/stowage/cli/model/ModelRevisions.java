package io.stowage.cli.model;

import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.manifest.ModelManifest;
import io.stowage.store.ObjectHead;
import io.stowage.store.StoreException;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The immutability rule of model revisions, decided before a byte is sent: consumes a {@link ModelPublisher.Planned}
 * revision, what the primary store holds at {@code models/<model>/<revision>/manifest.json} and what the ledger knows of
 * the asset, and produces {@link Decision#PUBLISH}, {@link Decision#ALREADY_STORED} or a refusal.
 */
public final class ModelRevisions {
    /** What the store can tell: HEAD and GET of a key. */
    public interface Store {
        /** @return the object's size and SHA-256 metadata, empty when absent */
        Optional<ObjectHead> head(String key);

        /** @return the object's bytes; the caller closes the stream */
        InputStream open(String key);
    }

    /** The outcome for a planned revision. */
    public enum Decision {
        /** Nothing of the revision is stored (or the same manifest with a file missing): send it. */
        PUBLISH,
        /** The same manifest and every file are stored: send nothing. */
        ALREADY_STORED
    }

    private final Store store;
    private final Function<String, Optional<AssetEvidence>> ledger;

    /** @param ledger the ledger's asset by id ({@code LedgerClient::asset}) */
    public ModelRevisions(Store store, Function<String, Optional<AssetEvidence>> ledger) {
        this.store = store;
        this.ledger = ledger;
    }

    /**
     * @throws CliException (exit 1) when the store already holds another manifest for this model and revision, or
     *                      the ledger recorded another publish of it (one line naming the first difference), or the
     *                      store cannot be read
     */
    public Decision decide(ModelPublisher.Planned planned) {
        ModelManifest m = planned.manifest();
        String manifestKey = ObjectKeys.modelManifest(m.model(), m.revision());
        try {
            Optional<ObjectHead> stored = store.head(manifestKey);
            if (stored.isPresent() && !planned.sha256().equals(stored.get().sha256())) {
                throw refused(planned, "the store holds another manifest at " + manifestKey + " (sha256 "
                        + stored.get().sha256() + ", this directory's " + planned.sha256() + "; "
                        + ModelManifestDiff.first(read(manifestKey), m) + ")");
            }
            Optional<AssetEvidence> known = ledger.apply(planned.assetId());
            if (known.isPresent() && known.get().manifestSha256() != null
                    && !planned.sha256().equals(known.get().manifestSha256())) {
                throw refused(planned, "the ledger records another publish of it (manifest sha256 "
                        + known.get().manifestSha256() + ", this directory's " + planned.sha256() + ")");
            }
            return stored.isPresent() && allFilesStored(planned) ? Decision.ALREADY_STORED : Decision.PUBLISH;
        } catch (StoreException e) {
            throw new CliException(CliException.FAILED, "cannot read " + manifestKey + ": " + e.getMessage(), e);
        }
    }

    private boolean allFilesStored(ModelPublisher.Planned planned) {
        List<String> keys = planned.fileKeys();
        for (int i = 0; i < keys.size(); i++) {
            var file = planned.manifest().files().get(i);
            Optional<ObjectHead> head = store.head(keys.get(i));
            if (head.isEmpty() || head.get().bytes() != file.bytes() || !file.sha256().equals(head.get().sha256())) {
                return false;
            }
        }
        return true;
    }

    private ModelManifest read(String key) {
        try (InputStream in = store.open(key)) {
            return EventCodec.mapper().readValue(in, ModelManifest.class);
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot read " + key + ": " + e.getMessage(), e);
        }
    }

    private static CliException refused(ModelPublisher.Planned planned, String why) {
        return new CliException(CliException.FAILED, "refusing to publish " + planned.assetId()
                + ": a published model revision never changes and " + why + "; publish it as a new --revision");
    }
}
