package io.stowage.cli.evidence;

import io.stowage.cli.output.Progress;
import io.stowage.events.ledger.AssetEvidence;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Consumes the ledger's asset index and each selected asset's evidence and event times, and produces the
 * {@link EvidenceExport} through the {@link EvidenceAllowList}; reports progress every {@value #PROGRESS_EVERY}
 * assets on standard error.
 */
public final class EvidenceCollector {
    /** Assets between two progress lines. */
    static final int PROGRESS_EVERY = 25;

    private final EvidenceLedger ledger;
    private final Progress progress;

    public EvidenceCollector(EvidenceLedger ledger, Progress progress) {
        this.ledger = ledger;
        this.progress = progress;
    }

    /**
     * @param selection which assets
     * @param now       the export's {@code generatedAt}
     * @return the export, assets in ascending id order (an asset the index named but the ledger then no longer
     *         answers is left out)
     */
    public EvidenceExport collect(EvidenceSelection selection, Instant now) {
        List<EvidenceLedger.IndexEntry> chosen = ledger.index().stream()
                .filter(e -> selection.covers(e.assetId(), e.kind())).toList();
        progress.step("reading the evidence of " + chosen.size() + " asset(s) from the ledger");
        List<EvidenceExport.Asset> assets = new ArrayList<>();
        int read = 0;
        for (EvidenceLedger.IndexEntry entry : chosen) {
            Optional<AssetEvidence> evidence = ledger.asset(entry.assetId());
            evidence.ifPresent(e -> assets.add(EvidenceAllowList.asset(e, ledger.eventTimes(entry.assetId()))));
            read++;
            if (read % PROGRESS_EVERY == 0 && read < chosen.size()) {
                progress.detail(read + " of " + chosen.size() + " assets read");
            }
        }
        return new EvidenceExport(EvidenceExport.FORMAT, now, List.copyOf(assets));
    }
}
