package io.stowage.shardbuilder.domain;

import io.stowage.events.EventCodec;
import io.stowage.events.InvalidEventException;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.events.Validation;
import io.stowage.events.manifest.BaselineManifest;
import io.stowage.shardformat.write.BuiltShard;
import io.stowage.shardformat.write.DatasetInputException;
import io.stowage.shardformat.write.DatasetScanner;
import io.stowage.shardformat.write.DurableFiles;
import io.stowage.shardformat.write.Member;
import io.stowage.shardformat.write.MemberChangedException;
import io.stowage.shardformat.write.ShardPlan;
import io.stowage.shardformat.write.ShardWriter;
import io.stowage.shardformat.write.WrittenFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Archives one directory as a hash-bound baseline: consumes a {@link BaselineRequest}, produces exactly one
 * shard-format {@code tar.zst} holding every regular file (through {@link ShardWriter}, so the bytes are those of a
 * dataset shard of the same files: PAX headers, normalised owner/mode/mtime, zstd level 3), its member manifest and a
 * {@link BaselineManifest}, under {@code <staging>/archives/baselines/<model>/<milestone>/} (the local layout mirrors
 * the object keys). Deterministic: the same files give the same archive SHA-256 and key.
 */
public final class BaselineArchiver {
    private final DatasetScanner scanner = new DatasetScanner();
    private final ShardWriter writer;

    /** @param writer writes the archive (carries the normalised mtime) */
    public BaselineArchiver(ShardWriter writer) {
        this.writer = writer;
    }

    /**
     * Builds the archive, its member manifest and baseline manifest, fsynced and named by the archive's SHA-256.
     *
     * @throws DatasetInputException  when a name is invalid, the directory is missing, unreadable, empty or holds
     *                                anything but regular files and directories, or the staging directory lies inside
     *                                it (or contains it); checked before anything is written
     * @throws MemberChangedException when a file changed while it was read (nothing is returned)
     * @throws IOException            when reading or writing fails
     */
    public ArchivedBaseline archive(BaselineRequest request) throws IOException {
        Prepared prepared = prepare(request);
        Path dir = Files.createDirectories(prepared.targetDir());
        BuiltShard built = writer.write(prepared.plan(), dir);
        BaselineManifest manifest = manifest(request, built);
        WrittenFile manifestFile = DurableFiles.write(dir.resolve(built.shard().sha256() + ".manifest.json"),
                EventCodec.mapper().writeValueAsBytes(manifest));
        return new ArchivedBaseline(prepared.source(), built.shard(), built.members(), manifestFile, manifest,
                manifestFile.sha256(), built.entries());
    }

    /**
     * Computes what {@link #archive} would produce (members, bytes, SHA-256s, keys) by building the archive into a
     * fresh temporary directory under the staging root and deleting it afterwards: nothing is kept or published.
     *
     * @throws DatasetInputException  as {@link #archive}
     * @throws MemberChangedException when a file changed while it was read
     * @throws IOException            when reading or writing the temporary copy fails
     */
    public ArchivedBaseline plan(BaselineRequest request) throws IOException {
        Prepared prepared = prepare(request);
        Path staging = Files.createDirectories(request.stagingDir().toAbsolutePath().normalize());
        Path scratch = Files.createTempDirectory(staging, ".baseline-dry-run-");
        try {
            BuiltShard built = writer.write(prepared.plan(), scratch);
            BaselineManifest manifest = manifest(request, built);
            byte[] bytes = EventCodec.mapper().writeValueAsBytes(manifest);
            return new ArchivedBaseline(prepared.source(), null, null, null, manifest, Sha256.of(bytes),
                    built.entries());
        } finally {
            deleteTree(scratch);
        }
    }

    private Prepared prepare(BaselineRequest request) throws IOException {
        try {
            Validation.requireSegment("model", request.model());
            Validation.requireSegment("milestone", request.milestone());
        } catch (InvalidEventException e) {
            throw new DatasetInputException(e.getMessage());
        }
        Path source = request.dir().toAbsolutePath().normalize();
        Path staging = request.stagingDir().toAbsolutePath().normalize();
        // the archive's directory mirrors its key: <staging>/archives/baselines/<model>/<milestone>/
        Path targetDir = staging.resolve(ObjectKeys.baselineArchive(request.model(), request.milestone(),
                "0".repeat(64))).getParent();
        List<Member> members = scanner.scan(source);
        if (members.isEmpty()) {
            throw new DatasetInputException("the directory holds no files: " + source);
        }
        if (staging.startsWith(source) || source.startsWith(targetDir) || staging.startsWith(source.toRealPath())) {
            throw new DatasetInputException("the staging directory " + staging
                    + " must not be inside the archived directory " + source + " (nor contain it)");
        }
        return new Prepared(source, targetDir, new ShardPlan(0, members));
    }

    private static BaselineManifest manifest(BaselineRequest request, BuiltShard built) {
        String sha = built.shard().sha256();
        return new BaselineManifest(BaselineManifest.FORMAT, request.model(), request.milestone(),
                ObjectKeys.baselineArchive(request.model(), request.milestone(), sha), built.shard().bytes(), sha,
                ObjectKeys.baselineMembers(request.model(), request.milestone(), sha), built.members().bytes(),
                built.members().sha256(), built.entries().size(), built.memberBytes());
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    private record Prepared(Path source, Path targetDir, ShardPlan plan) {
    }
}
