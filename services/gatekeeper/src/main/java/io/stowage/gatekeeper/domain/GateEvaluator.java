package io.stowage.gatekeeper.domain;

import io.stowage.events.ReleaseTargetPolicy;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ReleaseEvidence;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The gate: takes a release request's directory, the ledger's {@link ReleaseEvidence} for it and
 * the local disk, and returns a {@link GateDecision} (passed, or every failed condition of
 * docs/design/contract.md "The gate"). Besides the ledger's evidence, it HEADs every object that evidence relies on in
 * its store at decision time ({@link StoreLook}): the ledger's newest verification may be older than a deletion or a
 * replacement in the store; and, when nothing else has failed, it reads in full again every object whose full read
 * condition 2 counts, since a byte changed in the store without a change of size or metadata shows to no HEAD. Reads and hashes files and asks the stores: call it off the event loop.
 */
public final class GateEvaluator {
    private final ReleaseTargetPolicy policy;
    private final LocalTree tree;
    private final StoreLook store;
    private final boolean rereadAtDecision;

    /** As {@link #GateEvaluator(ReleaseTargetPolicy, LocalTree, StoreLook, boolean)}, re-reading at decision time. */
    public GateEvaluator(ReleaseTargetPolicy policy, LocalTree tree, StoreLook store) {
        this(policy, tree, store, true);
    }

    /**
     * @param policy           the path rule of condition 5: {@code stowage.gate.protected-roots},
     *                         {@code stowage.gatekeeper.volume-roots} and the home directories
     * @param tree             the local disk
     * @param store            the object stores as they are at decision time
     * @param rereadAtDecision read in full again, at decision time, every object whose full read condition 2 counts
     *                         ({@code stowage.gatekeeper.reread-at-decision}, default true); false takes the verifier's
     *                         earlier full reads on the ledger's word, so a byte changed in the store since is not seen
     */
    public GateEvaluator(ReleaseTargetPolicy policy, LocalTree tree, StoreLook store, boolean rereadAtDecision) {
        this.policy = policy;
        this.tree = tree;
        this.store = store;
        this.rereadAtDecision = rereadAtDecision;
    }

    /** @return the local disk this gate reads */
    public LocalTree tree() {
        return tree;
    }

    /** @return true when the release policy accepts {@code dir} as a target (roots, homes; no file is read) */
    public boolean releasable(Path dir) {
        return policy.refusal(dir).isEmpty();
    }

    /**
     * Evaluates conditions 1 to 5 for directory {@code path}.
     *
     * @param path     the requested directory, as given in the request (absolute, normalised)
     * @param evidence the ledger's answer to {@code GET /api/evidence?path=<path>}
     * @return passed with the asset ids (sorted), the directory's inventory and fingerprint, or denied with
     *         one failed condition per failed check; both with the five condition results and their evidence ids
     */
    public GateDecision evaluate(String path, ReleaseEvidence evidence) {
        return evaluate(path, evidence, tree);
    }

    /**
     * As {@link #evaluate(String, ReleaseEvidence)}, reading the disk through {@code tree} (a view over the same disk,
     * e.g. one that hashed the directory's files while the ledger was asked).
     */
    public GateDecision evaluate(String path, ReleaseEvidence evidence, LocalTree tree) {
        Findings findings = new Findings();
        Path dir;
        try {
            dir = Path.of(path);
        } catch (InvalidPathException e) {
            findings.fail(GateCheck.NOT_NORMALISED, path);
            return GateDecision.denied(List.of(), findings.toFailedConditions(), findings.toConditionResults(false));
        }
        List<AssetEvidence> assets = evidence.assets() == null ? List.of() : evidence.assets();
        if (assets.isEmpty()) {
            findings.fail(GateCheck.NO_ASSETS, path);
        }
        AssetChecks assetChecks = new AssetChecks(tree, findings);
        List<AccountedFiles> accounted = new ArrayList<>();
        for (AssetEvidence asset : assets) {
            var entries = assetChecks.check(asset);
            if (asset.localRoot() != null) {
                accounted.add(new AccountedFiles(Path.of(asset.localRoot()).normalize(), entries));
            }
        }
        StoreChecks storeChecks = new StoreChecks(store, findings);
        java.util.Set<StoreLook.StoredObject> notAsStored = storeChecks.check(assetChecks.reliedOn());
        DirectoryCheck.Tally tally = new DirectoryCheck(tree, policy, findings).check(dir, accounted);
        if (rereadAtDecision && findings.isEmpty()) {
            // condition 2 as the policy words it, at the moment it matters: the objects whose full read counts are
            // downloaded and hashed again, last, so that a decision denied on any other condition is not made slower
            notAsStored.addAll(storeChecks.reread(assetChecks.fullyRead()));
        }
        assetChecks.requireFullReadStillStored(notAsStored);
        List<String> ids = assets.stream().map(AssetEvidence::assetId).sorted().distinct().toList();
        if (!findings.isEmpty()) {
            return GateDecision.denied(ids, findings.toFailedConditions(), findings.toConditionResults(!assets.isEmpty()));
        }
        return GateDecision.passed(ids, tally.inventory(), tally.fingerprint(), findings.toConditionResults(true));
    }
}
