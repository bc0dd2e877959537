package io.stowage.gatekeeper.domain;

import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.manifest.MemberEntry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads local manifests through a {@link LocalTree} and trusts their bytes only when their
 * SHA-256 equals the one the ledger recorded; otherwise records a condition-1 failure.
 */
final class TrustedFiles {
    private final LocalTree tree;
    private final Findings findings;

    TrustedFiles(LocalTree tree, Findings findings) {
        this.tree = tree;
        this.findings = findings;
    }

    /** @return the bytes of the asset's dataset or checkpoint manifest, or null when not trusted */
    byte[] manifest(AssetEvidence asset) {
        if (!asset.sealed() || asset.manifestPath() == null || asset.manifestSha256() == null) {
            findings.fail(GateCheck.NOT_SEALED, asset.assetId());
            return null;
        }
        return trusted(Path.of(asset.manifestPath()), asset.manifestSha256());
    }

    /** @return the entries of a member manifest (JSONL), or an empty list when not trusted */
    List<MemberEntry> members(Path path, String expectedSha256) throws IOException {
        byte[] bytes = trusted(path, expectedSha256);
        if (bytes == null) {
            return List.of();
        }
        List<MemberEntry> entries = new ArrayList<>();
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                entries.add(EventCodec.mapper().readValue(line, MemberEntry.class));
            }
        }
        return entries;
    }

    private byte[] trusted(Path path, String expectedSha256) {
        byte[] bytes;
        try {
            bytes = tree.read(path);
        } catch (IOException e) {
            findings.fail(GateCheck.MANIFEST_UNREADABLE, path + ": " + e.getMessage());
            return null;
        }
        if (!Sha256.of(bytes).equals(expectedSha256)) {
            findings.fail(GateCheck.MANIFEST_CHANGED, path.toString());
            return null;
        }
        return bytes;
    }
}
