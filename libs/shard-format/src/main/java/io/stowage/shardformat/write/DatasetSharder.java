package io.stowage.shardformat.write;

import io.stowage.events.EventCodec;
import io.stowage.events.InvalidEventException;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.events.Validation;
import io.stowage.events.manifest.DatasetManifest;
import io.stowage.events.manifest.ShardEntry;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a dataset directory into shards: consumes a {@link ShardRequest}, produces the shards, their
 * member manifests and the dataset manifest under {@code <staging>/datasets/<dataset>/<revision>/}
 * (the local layout mirrors the object keys), and returns them as a {@link SealedDataset}. Shards are
 * written in parallel (one per thread, by default as many threads as processors); the output is the
 * same bytes, in the same order, as a sequential build.
 */
public final class DatasetSharder {
    private final DatasetScanner scanner = new DatasetScanner();
    private final ShardWrites writes;

    /**
     * Writes as many shards at once as the JVM has processors ({@link Runtime#availableProcessors()}).
     *
     * @param writer writes each shard (carries the normalised mtime)
     */
    public DatasetSharder(ShardWriter writer) {
        this(writer, Runtime.getRuntime().availableProcessors());
    }

    /**
     * @param writer      writes each shard (carries the normalised mtime)
     * @param parallelism most shards written at once, at least 1 (1 = sequential); the shards' bytes do
     *                    not depend on it
     * @throws IllegalArgumentException when {@code parallelism} is below 1
     */
    public DatasetSharder(ShardWriter writer, int parallelism) {
        this.writes = new ShardWrites(writer, parallelism);
    }

    /**
     * @throws DatasetInputException  when a name is invalid, the directory is missing, unreadable, empty
     *                                or holds anything but regular files and directories, two files collide
     *                                on their WebDataset (key, extension), or the staging directory lies
     *                                inside the dataset (all checked before anything is written)
     * @throws MemberChangedException when a file changed while it was read (shards written before or
     *                                beside it stay in staging, named by content, but nothing is returned,
     *                                so nothing is published; shards not yet started are not written)
     * @throws IOException            when reading or writing fails
     */
    public SealedDataset shard(ShardRequest request) throws IOException {
        return shard(request, (dataset, revision) -> RevisionState.unsealed());
    }

    /**
     * As {@link #shard(ShardRequest)}, sealing the revision only when the ledger allows it: the ledger is asked
     * before the build (so an unreachable ledger costs no work) and again once the new manifest's SHA-256 is known,
     * before {@code manifest.json} is written; {@link RevisionSeal} decides.
     *
     * @param ledger what the ledger knows of the revision
     * @return the revision, {@link SealedDataset#alreadySealed()} when the same content is sealed already
     * @throws RevisionSealedException    when the revision is sealed with other content, or the staging directory
     *                                    already holds its {@code manifest.json} with other content (an earlier or a
     *                                    concurrent build the ledger may not know yet: of two racing builds exactly
     *                                    one writes it); {@code manifest.json} is then not written, the new shards
     *                                    stay in staging under their own names
     * @throws LedgerUnavailableException when the ledger cannot say
     */
    public SealedDataset shard(ShardRequest request, RevisionLookup ledger) throws IOException {
        try {
            Validation.requireSegment("dataset", request.dataset());
            Validation.requireSegment("revision", request.revision());
        } catch (InvalidEventException e) {
            throw new DatasetInputException(e.getMessage());
        }
        ledger.stateOf(request.dataset(), request.revision());
        ShardPlanner planner = new ShardPlanner(request.targetShardBytes());
        Path source = request.dir().toAbsolutePath().normalize();
        Path manifestPath = request.stagingDir().toAbsolutePath().normalize()
                .resolve(ObjectKeys.datasetManifest(request.dataset(), request.revision()));
        Path revisionDir = manifestPath.getParent();
        List<Member> members = scanner.scan(source);
        SampleKey.requireUnique(members);
        List<ShardPlan> plans = planner.plan(members);
        if (revisionDir.startsWith(source) || source.startsWith(revisionDir)
                || revisionDir.startsWith(source.toRealPath())) {
            throw new DatasetInputException("the staging directory " + revisionDir
                    + " must not be inside the dataset directory " + source + " (nor contain it)");
        }
        Path shardsDir = Files.createDirectories(revisionDir.resolve("shards"));
        List<BuiltShard> shards = writes.writeAll(plans, shardsDir);
        DatasetManifest manifest = manifest(request, shards);
        byte[] json = EventCodec.mapper().writeValueAsBytes(manifest);
        RevisionSeal.Decision decision = RevisionSeal.decide(request.dataset(), request.revision(),
                ledger.stateOf(request.dataset(), request.revision()),
                Sha256.of(json));
        WrittenFile manifestFile;
        try {
            manifestFile = DurableFiles.writeNew(manifestPath, json);
        } catch (FileAlreadyExistsException e) {
            throw new RevisionSealedException("dataset revision " + request.dataset() + "@" + request.revision()
                    + " already has a manifest in staging (" + manifestPath + ", which " + e.getReason()
                    + ") with other content than this build's (sha256 "
                    + Sha256.of(json) + "), from an earlier or a concurrent build that the ledger may not know yet: "
                    + "a sealed revision never changes, shard it as a new revision (or remove that file if its build "
                    + "was abandoned before it was published)");
        }
        return new SealedDataset(source, shards, manifestFile, manifest, decision == RevisionSeal.Decision.ALREADY_SEALED);
    }

    private static DatasetManifest manifest(ShardRequest request, List<BuiltShard> shards) {
        List<ShardEntry> entries = new ArrayList<>(shards.size());
        int memberCount = 0;
        long memberBytes = 0;
        for (BuiltShard shard : shards) {
            String sha = shard.shard().sha256();
            entries.add(new ShardEntry(shard.index(),
                    ObjectKeys.shard(request.dataset(), request.revision(), sha), shard.shard().bytes(), sha,
                    ObjectKeys.members(request.dataset(), request.revision(), sha), shard.members().bytes(),
                    shard.members().sha256(), shard.entries().size()));
            memberCount += shard.entries().size();
            memberBytes += shard.memberBytes();
        }
        return new DatasetManifest(DatasetManifest.FORMAT, request.dataset(), request.revision(),
                request.license(), request.source(), memberCount, memberBytes, entries);
    }
}
