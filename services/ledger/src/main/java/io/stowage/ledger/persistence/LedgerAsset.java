package io.stowage.ledger.persistence;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.stowage.ledger.domain.AssetRecord;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;

/** Table {@code ledger_asset}: the projection of one asset, written from an {@link AssetRecord}. */
@Entity
@Table(name = "ledger_asset", indexes = @Index(name = "ledger_asset_local_root", columnList = "local_root"))
public class LedgerAsset extends PanacheEntityBase {
    @Id
    @Column(name = "asset_id")
    public String assetId;
    @Column(name = "kind", nullable = false)
    public String kind;
    @Column(name = "local_root", columnDefinition = "text")
    public String localRoot;
    @Column(name = "sealed", nullable = false)
    public boolean sealed;
    @Column(name = "manifest_path", columnDefinition = "text")
    public String manifestPath;
    @Column(name = "manifest_sha256")
    public String manifestSha256;
    @Column(name = "key_checkpoint", nullable = false)
    public boolean keyCheckpoint;
    @Column(name = "revision")
    public String revision;
    @Column(name = "license", columnDefinition = "text")
    public String license;
    @Column(name = "source", columnDefinition = "text")
    public String source;
    @Column(name = "code_commit")
    public String codeCommit;
    @Column(name = "config_sha256")
    public String configSha256;
    @Column(name = "data_manifest_sha256")
    public String dataManifestSha256;
    @Column(name = "sealed_event_id")
    public String sealedEventId;

    /** @return this row as a domain record */
    public AssetRecord toRecord() {
        return new AssetRecord(assetId, kind, localRoot, sealed, manifestPath, manifestSha256, keyCheckpoint,
                revision, license, source, codeCommit, configSha256, dataManifestSha256, sealedEventId);
    }

    /** Copies every field of {@code r} into this row. */
    public LedgerAsset set(AssetRecord r) {
        assetId = r.assetId();
        kind = r.kind();
        localRoot = r.localRoot();
        sealed = r.sealed();
        manifestPath = r.manifestPath();
        manifestSha256 = r.manifestSha256();
        keyCheckpoint = r.keyCheckpoint();
        revision = r.revision();
        license = r.license();
        source = r.source();
        codeCommit = r.codeCommit();
        configSha256 = r.configSha256();
        dataManifestSha256 = r.dataManifestSha256();
        sealedEventId = r.sealedEventId();
        return this;
    }
}
