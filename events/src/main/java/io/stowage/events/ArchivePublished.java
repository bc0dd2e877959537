package io.stowage.events;

/**
 * A milestone archive was written to local staging: every ledger event of one closed asset (a training run or a
 * dataset revision) in chain order, as JSON lines compressed with zstd ({@code docs/design/ledger.md}, "Milestone
 * archives"). Produced by the CLI ({@code stowage audit archive}) on {@link Topics#ARCHIVE_PUBLISHED}; consumed by
 * the uploader (which puts it at {@link ObjectKeys#ledgerArchive}) and the ledger.
 *
 * @param archivedAsset  the closed asset: {@code run/<experiment>/<run>} or {@code dataset/<name>/<revision>}
 * @param archivePath    absolute local path of the {@code .jsonl.zst} file
 * @param bytes          its size in bytes
 * @param sha256         its SHA-256 (its content address)
 * @param eventCount     ledger events in the archive
 * @param firstSeq       chain seq of the first of them (0 when there are none)
 * @param lastSeq        chain seq of the last of them (0 when there are none)
 * @param lastChainHash  the chain link stored with the last of them (the archive's anchor in the chain), or null
 *                       when there are none
 */
public record ArchivePublished(EventMeta meta, String archivedAsset, String archivePath, long bytes, String sha256,
                               long eventCount, long firstSeq, long lastSeq, String lastChainHash)
        implements StowageEvent {

    public static ArchivePublished of(EventMeta meta, String archivedAsset, String archivePath, long bytes,
                                      String sha256, long eventCount, long firstSeq, long lastSeq,
                                      String lastChainHash) {
        ArchivePublished event = new ArchivePublished(meta, archivedAsset, archivePath, bytes, sha256, eventCount,
                firstSeq, lastSeq, lastChainHash);
        event.validate();
        return event;
    }

    /** @return {@code archive/<archived asset>} ({@link AssetIds#archive}) */
    @Override
    public String assetId() {
        return AssetIds.archive(archivedAsset);
    }

    @Override
    public String topic() {
        return Topics.ARCHIVE_PUBLISHED;
    }

    /** @return the object key the archive is stored at ({@link ObjectKeys#ledgerArchive}) */
    public String key() {
        return ObjectKeys.ledgerArchive(archivedAsset, sha256);
    }

    @Override
    public void validate() {
        Validation.require(meta != null, "meta is missing");
        meta.validate();
        Validation.requireText("archivedAsset", archivedAsset);
        Validation.require(archivedAsset.startsWith("run/") || archivedAsset.startsWith("dataset/"),
                "archivedAsset must be run/<experiment>/<run> or dataset/<name>/<revision>");
        Validation.requireText("archivePath", archivePath);
        Validation.requireNonNegative("bytes", bytes);
        Validation.requireSha256("sha256", sha256);
        Validation.requireNonNegative("eventCount", eventCount);
        Validation.requireNonNegative("firstSeq", firstSeq);
        Validation.requireNonNegative("lastSeq", lastSeq);
        if (lastChainHash != null) {
            Validation.requireSha256("lastChainHash", lastChainHash);
        }
        key();
    }
}
