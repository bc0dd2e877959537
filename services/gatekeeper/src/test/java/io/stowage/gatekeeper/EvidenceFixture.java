package io.stowage.gatekeeper;

import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import io.stowage.events.ObjectKind;
import io.stowage.events.Provenance;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.manifest.BaselineManifest;
import io.stowage.events.manifest.CheckpointManifest;
import io.stowage.events.manifest.DatasetManifest;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.events.manifest.ModelManifest;
import io.stowage.events.manifest.ShardEntry;
import io.stowage.events.Sha256;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * Writes a dataset or checkpoint (files, manifests) to a disk and returns the ledger evidence the
 * real ledger would answer for it once everything was uploaded and verified. Evidence event ids are
 * named for what they are: {@code up:<store>:<key>}, {@code head:<store>:<key>}, {@code full:<store>:<key>},
 * {@code seal:<asset id>}.
 */
public final class EvidenceFixture {
    /** Where the fixture writes: an in-memory tree or the real filesystem. */
    public interface Disk {
        void write(Path path, byte[] bytes);
    }

    public static final Provenance PROVENANCE = new Provenance("0123abc", "a".repeat(64), "b".repeat(64));

    private EvidenceFixture() {
    }

    /** Dataset speech/r1 with one shard whose members are {@code members} (relative path to content). */
    public static AssetEvidence dataset(Disk disk, Path sourceDir, Path staging, Map<String, String> members) {
        StringBuilder jsonl = new StringBuilder();
        long total = 0;
        for (var member : new TreeMap<>(members).entrySet()) {
            byte[] bytes = utf8(member.getValue());
            disk.write(sourceDir.resolve(member.getKey()), bytes);
            jsonl.append(json(new MemberEntry(member.getKey(), bytes.length, Sha256.of(bytes)))).append('\n');
            total += bytes.length;
        }
        byte[] shard = utf8("tar.zst of " + members.keySet());
        byte[] membersBytes = utf8(jsonl.toString());
        String shardSha = Sha256.of(shard);
        String shardKey = ObjectKeys.shard("speech", "r1", shardSha);
        String membersKey = ObjectKeys.members("speech", "r1", shardSha);
        Path shardPath = staging.resolve(shardSha + ".tar.zst");
        Path membersPath = staging.resolve(shardSha + ".members.jsonl");
        disk.write(shardPath, shard);
        disk.write(membersPath, membersBytes);
        DatasetManifest manifest = new DatasetManifest(DatasetManifest.FORMAT, "speech", "r1", "CC-BY-4.0",
                "https://example.org/speech", members.size(), total, List.of(new ShardEntry(0, shardKey, shard.length,
                shardSha, membersKey, membersBytes.length, Sha256.of(membersBytes), members.size())));
        byte[] manifestBytes = utf8(json(manifest));
        Path manifestPath = staging.resolve("manifest.json");
        disk.write(manifestPath, manifestBytes);
        List<ObjectEvidence> objects = List.of(
                ok("primary", shardKey, ObjectKind.SHARD, shard, shardPath, VerifyResult.OK),
                ok("primary", membersKey, ObjectKind.MEMBERS, membersBytes, membersPath, null),
                ok("primary", ObjectKeys.datasetManifest("speech", "r1"), ObjectKind.DATASET_MANIFEST, manifestBytes,
                        manifestPath, null));
        return new AssetEvidence("dataset/speech/r1", "dataset", sourceDir.toString(), true, manifestPath.toString(),
                Sha256.of(manifestBytes), false, "r1", "CC-BY-4.0", "https://example.org/speech", null, objects,
                List.of(), "seal:dataset/speech/r1");
    }

    /** Checkpoint exp/run1/100 with {@code files}; a key checkpoint also gets verified replica copies. */
    public static AssetEvidence checkpoint(Disk disk, Path stepDir, Path manifestPath, Map<String, String> files,
                                           boolean key) {
        List<MemberEntry> entries = new ArrayList<>();
        List<ObjectEvidence> objects = new ArrayList<>();
        for (var file : new TreeMap<>(files).entrySet()) {
            byte[] bytes = utf8(file.getValue());
            Path local = stepDir.resolve(file.getKey());
            disk.write(local, bytes);
            entries.add(new MemberEntry(file.getKey(), bytes.length, Sha256.of(bytes)));
            String objectKey = ObjectKeys.checkpointFile("exp", "run1", 100, Sha256.of(bytes), file.getKey());
            VerifyResult fullRead = objects.isEmpty() ? VerifyResult.OK : null;
            objects.add(ok("primary", objectKey, ObjectKind.CHECKPOINT_FILE, bytes, local, fullRead));
            if (key) {
                objects.add(ok("replica", objectKey, ObjectKind.CHECKPOINT_FILE, bytes, local, null));
            }
        }
        CheckpointManifest manifest = new CheckpointManifest(CheckpointManifest.FORMAT, "exp", "run1", 100,
                stepDir.toString(), key, List.of(), PROVENANCE, entries);
        byte[] manifestBytes = utf8(json(manifest));
        disk.write(manifestPath, manifestBytes);
        return new AssetEvidence("checkpoint/exp/run1/000000000100", "checkpoint", stepDir.toString(), true,
                manifestPath.toString(), Sha256.of(manifestBytes), key, null, null, null, PROVENANCE, objects,
                List.of(), "seal:checkpoint/exp/run1/000000000100");
    }

    /**
     * Baseline archive whisper-tiny/baseline-1 of {@code members} (relative path to content): a stand-in archive, its
     * member manifest and baseline manifest under {@code staging}, both objects uploaded with HEAD OK and the archive
     * (kind SHARD) re-read in full with OK, as the ledger answers once {@code stowage archive} finished.
     */
    public static AssetEvidence baseline(Disk disk, Path sourceDir, Path staging, Map<String, String> members) {
        StringBuilder jsonl = new StringBuilder();
        long total = 0;
        for (var member : new TreeMap<>(members).entrySet()) {
            byte[] bytes = utf8(member.getValue());
            disk.write(sourceDir.resolve(member.getKey()), bytes);
            jsonl.append(json(new MemberEntry(member.getKey(), bytes.length, Sha256.of(bytes)))).append('\n');
            total += bytes.length;
        }
        byte[] archive = utf8("tar.zst of " + members.keySet());
        byte[] membersBytes = utf8(jsonl.toString());
        String sha = Sha256.of(archive);
        String key = ObjectKeys.baselineArchive("whisper-tiny", "baseline-1", sha);
        String membersKey = ObjectKeys.baselineMembers("whisper-tiny", "baseline-1", sha);
        Path archivePath = staging.resolve(key);
        Path membersPath = staging.resolve(membersKey);
        disk.write(archivePath, archive);
        disk.write(membersPath, membersBytes);
        BaselineManifest manifest = new BaselineManifest(BaselineManifest.FORMAT, "whisper-tiny", "baseline-1", key,
                archive.length, sha, membersKey, membersBytes.length, Sha256.of(membersBytes), members.size(), total);
        byte[] manifestBytes = utf8(json(manifest));
        Path manifestPath = archivePath.resolveSibling(sha + ".manifest.json");
        disk.write(manifestPath, manifestBytes);
        List<ObjectEvidence> objects = List.of(
                ok("primary", key, ObjectKind.SHARD, archive, archivePath, VerifyResult.OK),
                ok("primary", membersKey, ObjectKind.MEMBERS, membersBytes, membersPath, VerifyResult.OK));
        return new AssetEvidence("baseline/whisper-tiny/baseline-1", "baseline", sourceDir.toString(), true,
                manifestPath.toString(), Sha256.of(manifestBytes), false, "baseline-1", null, null, null, objects,
                List.of(), "seal:baseline/whisper-tiny/baseline-1");
    }

    /**
     * Model revision en-us/r1 of {@code files} (relative path to content) with licence and source: every file and the
     * model manifest uploaded with HEAD OK and re-read in full with OK, as the ledger answers once
     * {@code stowage model publish} finished.
     */
    public static AssetEvidence model(Disk disk, Path modelDir, Path manifestPath, Map<String, String> files) {
        List<MemberEntry> entries = new ArrayList<>();
        List<ObjectEvidence> objects = new ArrayList<>();
        for (var file : new TreeMap<>(files).entrySet()) {
            byte[] bytes = utf8(file.getValue());
            Path local = modelDir.resolve(file.getKey());
            disk.write(local, bytes);
            entries.add(new MemberEntry(file.getKey(), bytes.length, Sha256.of(bytes)));
            objects.add(ok("primary", ObjectKeys.modelFile("en-us", "r1", Sha256.of(bytes), file.getKey()),
                    ObjectKind.MODEL_FILE, bytes, local, VerifyResult.OK));
        }
        ModelManifest manifest = new ModelManifest(ModelManifest.FORMAT, "en-us", "r1", "BSD-2-Clause",
                "debian:pocketsphinx-en-us", null, null, entries);
        byte[] manifestBytes = utf8(json(manifest));
        disk.write(manifestPath, manifestBytes);
        objects.add(ok("primary", ObjectKeys.modelManifest("en-us", "r1"), ObjectKind.MODEL_MANIFEST, manifestBytes,
                manifestPath, VerifyResult.OK));
        return new AssetEvidence("model/en-us/r1", "model", modelDir.toString(), true, manifestPath.toString(),
                Sha256.of(manifestBytes), false, "r1", "BSD-2-Clause", "debian:pocketsphinx-en-us", null, objects,
                List.of(), "seal:model/en-us/r1");
    }

    /** @return the asset with its objects replaced by {@code change} applied to them */
    public static AssetEvidence withObjects(AssetEvidence a, UnaryOperator<List<ObjectEvidence>> change) {
        return new AssetEvidence(a.assetId(), a.kind(), a.localRoot(), a.sealed(), a.manifestPath(),
                a.manifestSha256(), a.keyCheckpoint(), a.revision(), a.license(), a.source(), a.provenance(),
                change.apply(a.objects()), a.uploadFailures(), a.sealedEventId(), a.deadLetters());
    }

    /** @return the asset with these outstanding dead letters */
    public static AssetEvidence withDeadLetters(AssetEvidence a, List<io.stowage.events.ledger.DeadLetterNote> deadLetters) {
        return new AssetEvidence(a.assetId(), a.kind(), a.localRoot(), a.sealed(), a.manifestPath(),
                a.manifestSha256(), a.keyCheckpoint(), a.revision(), a.license(), a.source(), a.provenance(),
                a.objects(), a.uploadFailures(), a.sealedEventId(), deadLetters);
    }

    /** @return the asset with other licence, source and provenance */
    public static AssetEvidence withMetadata(AssetEvidence a, String license, String source, Provenance provenance) {
        return new AssetEvidence(a.assetId(), a.kind(), a.localRoot(), a.sealed(), a.manifestPath(),
                a.manifestSha256(), a.keyCheckpoint(), a.revision(), license, source, provenance, a.objects(),
                a.uploadFailures(), a.sealedEventId());
    }

    /** @return the asset claiming another manifest SHA-256 */
    public static AssetEvidence withManifestSha256(AssetEvidence a, String sha256) {
        return new AssetEvidence(a.assetId(), a.kind(), a.localRoot(), a.sealed(), a.manifestPath(), sha256,
                a.keyCheckpoint(), a.revision(), a.license(), a.source(), a.provenance(), a.objects(),
                a.uploadFailures(), a.sealedEventId());
    }

    /** @return the object with other verification results */
    public static ObjectEvidence withResults(ObjectEvidence o, VerifyResult head, VerifyResult fullRead) {
        return new ObjectEvidence(o.store(), o.bucket(), o.key(), o.kind(), o.bytes(), o.sha256(), o.localPath(),
                head, fullRead, o.uploadedEventId(), head == null ? null : o.headEventId(),
                fullRead == null ? null : "full:" + o.store() + ":" + o.key());
    }

    /** @return the object claiming another SHA-256 */
    public static ObjectEvidence withSha256(ObjectEvidence o, String sha256) {
        return new ObjectEvidence(o.store(), o.bucket(), o.key(), o.kind(), o.bytes(), sha256, o.localPath(),
                o.headResult(), o.fullReadResult(), o.uploadedEventId(), o.headEventId(), o.fullReadEventId());
    }

    private static ObjectEvidence ok(String store, String key, ObjectKind kind, byte[] bytes, Path local,
                                     VerifyResult fullRead) {
        return new ObjectEvidence(store, "stowage-" + store, key, kind, bytes.length, Sha256.of(bytes),
                local.toString(), VerifyResult.OK, fullRead, "up:" + store + ":" + key, "head:" + store + ":" + key,
                fullRead == null ? null : "full:" + store + ":" + key);
    }

    public static String json(Object value) {
        try {
            return EventCodec.mapper().writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
