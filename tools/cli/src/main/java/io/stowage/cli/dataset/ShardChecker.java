package io.stowage.cli.dataset;

import io.stowage.events.manifest.MemberEntry;
import io.stowage.shardformat.MemberManifestException;
import io.stowage.shardformat.ShardReader;
import io.stowage.shardformat.ShardReport;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.StoreException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks one {@link ShardToCheck} with the {@link ShardReader}: loads its member manifest, streams the shard once,
 * and turns everything that can go wrong (no manifest, no shard, a truncated stream, a member that differs) into
 * {@link DatasetVerifyReport.Problem}s. Never throws for a bad shard.
 */
public final class ShardChecker {
    private final ShardReader reader = new ShardReader();

    /** @return the shard's line for the report */
    public DatasetVerifyReport.ShardLine check(ShardToCheck shard) {
        List<MemberEntry> manifest;
        try {
            manifest = shard.members().load();
        } catch (NoSuchFileException | ObjectNotFoundException e) {
            return failed(shard, "MEMBER_MANIFEST_MISSING", "no member manifest: " + e.getMessage());
        } catch (ManifestShards.MembersDigestMismatch e) {
            return failed(shard, "MEMBER_MANIFEST_SHA256_MISMATCH", e.getMessage());
        } catch (MemberManifestException e) {
            return failed(shard, "MEMBER_MANIFEST_INVALID", e.getMessage());
        } catch (IOException | StoreException e) {
            return failed(shard, "READ_FAILED", "member manifest: " + e.getMessage());
        }
        ShardReport report;
        try (InputStream in = shard.shard().open()) {
            report = reader.verify(in, manifest, shard.expectedSha256());
        } catch (NoSuchFileException | ObjectNotFoundException e) {
            return failed(shard, "SHARD_MISSING", "no shard: " + e.getMessage());
        } catch (IOException | StoreException e) {
            return failed(shard, "READ_FAILED", e.getMessage());
        }
        List<DatasetVerifyReport.Problem> problems = new ArrayList<>();
        report.problems().forEach(p -> problems.add(new DatasetVerifyReport.Problem(p.kind().name(), p.member(), p.detail())));
        if (shard.expectedBytes() != null && report.shardBytes() >= 0 && report.shardBytes() != shard.expectedBytes()) {
            problems.add(new DatasetVerifyReport.Problem("SHARD_SIZE_MISMATCH", null, "expected " + shard.expectedBytes()
                    + " bytes, read " + report.shardBytes()));
        }
        return new DatasetVerifyReport.ShardLine(shard.name(), problems.isEmpty(), report.membersRead(), report.memberBytes(),
                report.shardBytes(), report.shardSha256(), problems);
    }

    private static DatasetVerifyReport.ShardLine failed(ShardToCheck shard, String kind, String detail) {
        return new DatasetVerifyReport.ShardLine(shard.name(), false, 0, 0, -1, null,
                List.of(new DatasetVerifyReport.Problem(kind, null, detail)));
    }
}
