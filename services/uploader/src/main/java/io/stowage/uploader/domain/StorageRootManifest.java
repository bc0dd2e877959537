package io.stowage.uploader.domain;

import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;

import java.nio.charset.StandardCharsets;

/**
 * The storage root manifest ({@value ObjectKeys#ROOT_MANIFEST}): a fixed JSON document recording the key layout of
 * the store (datasets, checkpoints, models, archives, ledger archives, manifests) and its policy (shard size
 * bounds, verification, retention). It holds no secret, no endpoint, no bucket and no time, so its bytes are the
 * same on every start and on every installation of this version; a changed layout or policy is a new version
 * ({@code storage-root-v2.json}). {@link #decide} says what the uploader does with the object found in the store.
 */
public final class StorageRootManifest {
    /** The manifest's bytes: UTF-8 JSON, two-space indent, one trailing newline. */
    private static final String TEXT = """
            {
              "format": "stowage-storage-root/1",
              "layout": {
                "datasets": "datasets/<dataset>/<revision>/shards/<sha256>.tar.zst, datasets/<dataset>/<revision>/shards/<shard sha256>.members.jsonl, datasets/<dataset>/<revision>/manifest.json",
                "checkpoints": "checkpoints/<experiment>/<run>/<step, 12 digits>/<sha256>/<file path>, checkpoints/<experiment>/<run>/latest.json",
                "models": "models/<model>/<revision>/<sha256>/<filename>",
                "archives": "archives/baselines/<model>/<milestone>/<sha256>.tar.zst",
                "ledger": "ledger/archives/<asset id>/<sha256>.jsonl.zst",
                "manifests": "manifests/storage-root-v1.json"
              },
              "keys": {
                "contentAddressed": true,
                "segment": "1-200 ASCII letters, digits, '.', '_', '-'; not '.' or '..'",
                "maxKeyBytes": 1024,
                "sha256Metadata": "x-amz-meta-sha256"
              },
              "policy": {
                "shardBytes": {"min": 1073741824, "max": 4294967296, "default": 2147483648},
                "verification": {
                  "head": "every object after upload",
                  "fullRead": "manifests, replica objects and the first shard or checkpoint file of each asset always; the rest by stowage.verifier.full-read-fraction (default 1.0)",
                  "scrub": "every object re-read in full within stowage.verifier.scrub.period (default P30D)"
                },
                "replica": "key checkpoints are copied to the replica store",
                "retention": "objects are never deleted by Stowage; audit topics keep every record (retention.ms=-1)",
                "release": "a local directory is deleted only when the five conditions of the gate pass"
              }
            }
            """;

    private StorageRootManifest() {
    }

    /** @return the manifest's exact bytes (UTF-8), a fresh copy */
    public static byte[] bytes() {
        return TEXT.getBytes(StandardCharsets.UTF_8);
    }

    /** @return SHA-256 of {@link #bytes()}, 64 lower-case hex digits */
    public static String sha256() {
        return Sha256.of(bytes());
    }

    /** What to do at start-up, given what the store holds at {@value ObjectKeys#ROOT_MANIFEST}. */
    public enum Action {
        /** Absent: put it, then read it back. */
        PUT,
        /** Present with the same bytes: nothing to do. */
        MATCHES,
        /** Present with other bytes: stop the start-up. */
        MISMATCH
    }

    /**
     * @param storedBytes  size of the object found, in bytes, or -1 when there is none
     * @param storedSha256 SHA-256 of every byte read back from it (64 hex digits), or null when there is none
     * @return the action
     */
    public static Action decide(long storedBytes, String storedSha256) {
        if (storedBytes < 0) {
            return Action.PUT;
        }
        return storedBytes == bytes().length && sha256().equalsIgnoreCase(storedSha256) ? Action.MATCHES : Action.MISMATCH;
    }

    /**
     * @return the one-line start-up error for a stored manifest that differs, naming key, sizes and SHA-256s
     */
    public static String mismatchMessage(String store, String bucket, long storedBytes, String storedSha256) {
        return "storage root manifest " + store + ":" + bucket + "/" + ObjectKeys.ROOT_MANIFEST + " differs from this version's ("
                + storedBytes + " bytes, sha256 " + storedSha256 + "; expected " + bytes().length + " bytes, sha256 "
                + sha256() + "): another layout or policy owns this bucket, or the object was changed";
    }
}
