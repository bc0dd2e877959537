package io.stowage.cli.dataset;

import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.DatasetManifest;
import io.stowage.events.manifest.ShardEntry;
import io.stowage.shardformat.MemberManifest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds shards on disk for {@code stowage dataset verify --path}: one {@code *.tar.zst} file; a revision directory
 * of the staging layout holding a dataset {@code manifest.json}, whose shards are then taken from that manifest (a
 * shard it lists but the disk lacks is SHARD_MISSING); or every {@code *.tar.zst} under any other directory
 * (recursively, sorted by path). Each shard's member manifest is the file beside it with
 * {@code .members.jsonl} in place of {@code .tar.zst} (the shard builder's naming, {@code <sha256>.members.jsonl});
 * a shard named {@code <64 hex digits>.tar.zst} is expected to have that SHA-256.
 */
public final class LocalShards {
    static final String SHARD_SUFFIX = ".tar.zst";
    static final String MEMBERS_SUFFIX = ".members.jsonl";
    static final String DATASET_MANIFEST = "manifest.json";

    private LocalShards() {
    }

    /**
     * @param path a shard file or a directory holding shards
     * @return the shards in path order
     * @throws CliException (exit 2) when the path does not exist, is a file not named {@code *.tar.zst}, or is a
     *                      directory without any shard
     */
    public static List<ShardToCheck> find(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        if (Files.isRegularFile(absolute)) {
            if (!absolute.getFileName().toString().endsWith(SHARD_SUFFIX)) {
                throw new CliException(CliException.USAGE, absolute + " is not a shard (*" + SHARD_SUFFIX + ")");
            }
            return List.of(shard(absolute));
        }
        if (!Files.isDirectory(absolute)) {
            throw new CliException(CliException.USAGE, "no such file or directory: " + absolute);
        }
        if (Files.isRegularFile(absolute.resolve(DATASET_MANIFEST))) {
            return fromDatasetManifest(absolute);
        }
        List<ShardToCheck> shards;
        try (Stream<Path> files = Files.walk(absolute)) {
            shards = files.filter(f -> f.getFileName().toString().endsWith(SHARD_SUFFIX) && Files.isRegularFile(f))
                    .sorted().map(LocalShards::shard).toList();
        } catch (IOException | UncheckedIOException e) {
            throw new CliException(CliException.FAILED, "cannot list " + absolute + ": " + e.getMessage(), e);
        }
        if (shards.isEmpty()) {
            throw new CliException(CliException.USAGE, "no *" + SHARD_SUFFIX + " under " + absolute);
        }
        return shards;
    }

    /**
     * A revision directory of the staging layout ({@code <staging>/datasets/D/R/}, mirroring the object keys): the
     * shards its {@code manifest.json} lists, at the paths their keys give, checked against the manifest.
     */
    private static List<ShardToCheck> fromDatasetManifest(Path revisionDir) {
        Path file = revisionDir.resolve(DATASET_MANIFEST);
        DatasetManifest manifest;
        try {
            manifest = EventCodec.mapper().readValue(file.toFile(), DatasetManifest.class);
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot read the dataset manifest " + file + ": " + e.getMessage(), e);
        }
        if (!DatasetManifest.FORMAT.equals(manifest.format()) || manifest.shards() == null) {
            throw new CliException(CliException.FAILED, file + " is not a dataset manifest (format " + manifest.format() + ")");
        }
        String prefix = ObjectKeys.datasetManifest(manifest.dataset(), manifest.revision());
        prefix = prefix.substring(0, prefix.length() - DATASET_MANIFEST.length());
        List<ShardToCheck> shards = new java.util.ArrayList<>();
        for (ShardEntry entry : manifest.shards()) {
            Path shard = local(revisionDir, prefix, entry.key());
            Path members = local(revisionDir, prefix, entry.membersKey());
            shards.add(ManifestShards.of(entry, shard.toString(), () -> Files.newInputStream(shard),
                    () -> Files.newInputStream(members), members.toString()));
        }
        return shards;
    }

    private static Path local(Path revisionDir, String prefix, String key) {
        if (!key.startsWith(prefix)) {
            throw new CliException(CliException.FAILED, "the dataset manifest in " + revisionDir + " lists " + key
                    + ", which is not under " + prefix);
        }
        return revisionDir.resolve(key.substring(prefix.length())).normalize();
    }

    private static ShardToCheck shard(Path file) {
        String fileName = file.getFileName().toString();
        String stem = fileName.substring(0, fileName.length() - SHARD_SUFFIX.length());
        Path members = file.resolveSibling(stem + MEMBERS_SUFFIX);
        String expected = Sha256.isHex(stem) ? stem : null;
        return new ShardToCheck(file.toString(), expected, null, () -> Files.newInputStream(file),
                () -> MemberManifest.read(members));
    }
}
