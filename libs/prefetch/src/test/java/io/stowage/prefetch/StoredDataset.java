package io.stowage.prefetch;

import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.DatasetManifest;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.events.manifest.ShardEntry;
import io.stowage.store.s3.S3ObjectStore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A dataset revision put into the real store the way the uploader leaves it: shards, member manifests and
 * {@code manifest.json} under {@code datasets/<D>/<R>/}, each with its {@code sha256} metadata.
 */
record StoredDataset(DatasetManifest manifest, Map<String, byte[]> shardBytes, Map<String, byte[]> members) {

    /** @return shard {@code i} of the manifest */
    ShardEntry shard(int i) {
        return manifest.shards().get(i);
    }

    /** @return the bytes uploaded for shard {@code i} */
    byte[] bytes(int i) {
        return shardBytes.get(shard(i).sha256());
    }

    /**
     * Builds {@code shards} shards of {@code membersPerShard} random members of {@code memberBytes} bytes each
     * (seeded: the same arguments give the same bytes) and uploads them with {@code store}.
     */
    static StoredDataset upload(S3ObjectStore store, Path work, String dataset, String revision, int shards,
                                int membersPerShard, int memberBytes, long seed) throws IOException {
        List<ShardEntry> entries = new ArrayList<>();
        Map<String, byte[]> shardBytes = new HashMap<>();
        Map<String, byte[]> allMembers = new LinkedHashMap<>();
        long memberTotal = 0;
        for (int i = 0; i < shards; i++) {
            Map<String, byte[]> members = TestShards.randomMembers("part" + i, membersPerShard, memberBytes, seed + i);
            allMembers.putAll(members);
            byte[] shard = TestShards.tarZst(members);
            List<MemberEntry> manifest = TestShards.manifest(members);
            byte[] jsonl = TestShards.manifestJsonl(manifest);
            String sha = Sha256.of(shard);
            String membersSha = Sha256.of(jsonl);
            String key = ObjectKeys.shard(dataset, revision, sha);
            String membersKey = ObjectKeys.members(dataset, revision, sha);
            put(store, work, key, shard);
            put(store, work, membersKey, jsonl);
            entries.add(new ShardEntry(i, key, shard.length, sha, membersKey, jsonl.length, membersSha, members.size()));
            shardBytes.put(sha, shard);
            memberTotal += (long) membersPerShard * memberBytes;
        }
        DatasetManifest manifest = new DatasetManifest(DatasetManifest.FORMAT, dataset, revision, "CC0-1.0", "test",
                allMembers.size(), memberTotal, entries);
        put(store, work, ObjectKeys.datasetManifest(dataset, revision), EventCodec.mapper().writeValueAsBytes(manifest));
        return new StoredDataset(manifest, shardBytes, allMembers);
    }

    /** Puts {@code content} at {@code key} (through a file, as the store's put takes files). */
    static void put(S3ObjectStore store, Path work, String key, byte[] content) throws IOException {
        Files.createDirectories(work);
        Path file = Files.createTempFile(work, "put", ".bin");
        Files.write(file, content);
        store.put(key, file, content.length, Sha256.of(content), Map.of());
        Files.delete(file);
    }
}
