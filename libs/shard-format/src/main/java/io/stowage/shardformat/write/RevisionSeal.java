package io.stowage.shardformat.write;

/**
 * Decides whether a freshly built dataset manifest may seal its revision: consumes what the ledger knows of the
 * revision and the new manifest's SHA-256, produces {@link Decision#NEW} (seal and publish) or
 * {@link Decision#ALREADY_SEALED} (the same bytes are sealed already: a no-op), and refuses other content for a
 * sealed revision. Pure.
 */
public final class RevisionSeal {
    /** What to do with a built revision. */
    public enum Decision {
        /** Not sealed yet: write the manifest and publish every event. */
        NEW,
        /** Sealed with the same manifest SHA-256: nothing to send. */
        ALREADY_SEALED
    }

    private RevisionSeal() {
    }

    /**
     * @param dataset           dataset name
     * @param revision          revision name
     * @param state             the ledger's answer for {@code dataset/<dataset>/<revision>}
     * @param newManifestSha256 SHA-256 of the manifest the build produced
     * @return NEW or ALREADY_SEALED
     * @throws RevisionSealedException when the revision is sealed with another manifest SHA-256 (or with none recorded)
     */
    public static Decision decide(String dataset, String revision, RevisionState state, String newManifestSha256) {
        if (!state.sealed()) {
            return Decision.NEW;
        }
        if (newManifestSha256.equals(state.manifestSha256())) {
            return Decision.ALREADY_SEALED;
        }
        throw new RevisionSealedException("dataset revision " + dataset + "@" + revision + " is already sealed"
                + " with manifest sha256 " + state.manifestSha256() + "; this content gives " + newManifestSha256
                + ": a sealed revision never changes, shard it as a new revision");
    }
}
