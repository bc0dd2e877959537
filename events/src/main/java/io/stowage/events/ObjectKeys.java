package io.stowage.events;

/**
 * The content-addressed object key layout of docs/design/README.md ("Object keys"). Every method checks its name segments by
 * {@link Validation#segmentProblem(String)} (1–200 ASCII letters, digits, '.', '_', '-'; not "." or "..")
 * and its SHA-256s before a key is formed, and the whole key against {@value #MAX_KEY_BYTES} bytes (the S3
 * limit); it throws {@link InvalidEventException} with a one-line message naming the bad field otherwise.
 * A key formed here is plain ASCII without '//', a leading '/', '+', '%' or a space, so it is sent, signed,
 * listed and read back byte for byte by every S3 client.
 */
public final class ObjectKeys {
    /** Steps are zero-padded to this many digits so that lexical order is numeric order. */
    public static final int STEP_DIGITS = 12;
    /** Key of the storage root manifest. */
    public static final String ROOT_MANIFEST = "manifests/storage-root-v1.json";

    /** Longest key S3 accepts, in bytes (keys formed here are ASCII: one byte per character). */
    public static final int MAX_KEY_BYTES = 1024;

    private ObjectKeys() {
    }

    /** @return {@code datasets/<dataset>/<revision>/shards/<sha256>.tar.zst} */
    public static String shard(String dataset, String revision, String sha256) {
        return bounded(datasetPrefix(dataset, revision) + "shards/" + sha(sha256) + ".tar.zst");
    }

    /** @return {@code datasets/<dataset>/<revision>/shards/<shard sha256>.members.jsonl} */
    public static String members(String dataset, String revision, String shardSha256) {
        return bounded(datasetPrefix(dataset, revision) + "shards/" + sha(shardSha256) + ".members.jsonl");
    }

    /** @return {@code datasets/<dataset>/<revision>/manifest.json} */
    public static String datasetManifest(String dataset, String revision) {
        return bounded(datasetPrefix(dataset, revision) + "manifest.json");
    }

    /**
     * @param filename the file's path inside the model directory; each '/'-separated segment must be valid
     * @return {@code models/<model>/<revision>/<sha256>/<filename>}
     */
    public static String modelFile(String model, String revision, String sha256, String filename) {
        Validation.require(filename != null, "model file name is missing");
        for (String segment : filename.split("/", -1)) {
            Validation.requireSegment("filename", segment);
        }
        return bounded(modelPrefix(model, revision) + sha(sha256) + "/" + filename);
    }

    /** @return {@code models/<model>/<revision>/manifest.json}: the model manifest, written once per revision */
    public static String modelManifest(String model, String revision) {
        return bounded(modelPrefix(model, revision) + "manifest.json");
    }

    /** @return {@code models/<model>/<revision>/}: every object of one model revision is under it */
    public static String modelPrefix(String model, String revision) {
        Validation.requireSegment("model", model);
        Validation.requireSegment("revision", revision);
        return "models/" + model + "/" + revision + "/";
    }

    /**
     * @param filename the file's path inside the step directory; each '/'-separated segment must be valid
     * @return {@code checkpoints/<experiment>/<run>/<step, 12 digits>/<sha256>/<filename>}
     */
    public static String checkpointFile(String experiment, String run, long step, String sha256, String filename) {
        Validation.require(filename != null, "checkpoint file name is missing");
        for (String segment : filename.split("/", -1)) {
            Validation.requireSegment("checkpoint file name", segment);
        }
        return bounded(runPrefix(experiment, run) + paddedStep(step) + "/" + sha(sha256) + "/" + filename);
    }

    /** @return {@code checkpoints/<experiment>/<run>/latest.json} */
    public static String checkpointLatest(String experiment, String run) {
        return bounded(runPrefix(experiment, run) + "latest.json");
    }

    /** @return {@code archives/baselines/<model>/<milestone>/<sha256>.tar.zst} */
    public static String baselineArchive(String model, String milestone, String sha256) {
        Validation.requireSegment("model", model);
        Validation.requireSegment("milestone", milestone);
        return bounded("archives/baselines/" + model + "/" + milestone + "/" + sha(sha256) + ".tar.zst");
    }

    /** @return {@code archives/baselines/<model>/<milestone>/<archive sha256>.members.jsonl}: the archive's member manifest */
    public static String baselineMembers(String model, String milestone, String archiveSha256) {
        Validation.requireSegment("model", model);
        Validation.requireSegment("milestone", milestone);
        return bounded("archives/baselines/" + model + "/" + milestone + "/" + sha(archiveSha256) + ".members.jsonl");
    }

    /**
     * @param assetId the archived asset: {@code dataset/<name>/<revision>} or {@code run/<experiment>/<run>}
     *                ({@link AssetIds#dataset}, {@link AssetIds#run}); each segment must be valid
     * @return {@code ledger/archives/<asset id>/<sha256>.jsonl.zst}, e.g.
     *         {@code ledger/archives/run/speech-digits/run-1/<sha256>.jsonl.zst}
     */
    public static String ledgerArchive(String assetId, String sha256) {
        for (String segment : assetId.split("/", -1)) {
            Validation.requireSegment("archived asset", segment);
        }
        return bounded("ledger/archives/" + assetId + "/" + sha(sha256) + ".jsonl.zst");
    }

    /** @return the step as 12 zero-padded decimal digits; throws for a negative step */
    public static String paddedStep(long step) {
        Validation.requireNonNegative("step", step);
        return String.format("%0" + STEP_DIGITS + "d", step);
    }

    private static String datasetPrefix(String dataset, String revision) {
        Validation.requireSegment("dataset", dataset);
        Validation.requireSegment("revision", revision);
        return "datasets/" + dataset + "/" + revision + "/";
    }

    private static String runPrefix(String experiment, String run) {
        Validation.requireSegment("experiment", experiment);
        Validation.requireSegment("run", run);
        return "checkpoints/" + experiment + "/" + run + "/";
    }

    /** Segments are ASCII only ({@link Validation#requireSegment}), so the key's length in chars is its length in bytes. */
    private static String bounded(String key) {
        Validation.require(key.length() <= MAX_KEY_BYTES, "object key would be " + key.length()
                + " bytes long, longer than S3's " + MAX_KEY_BYTES + ": shorten the names");
        return key;
    }

    private static String sha(String sha256) {
        Validation.requireSha256("sha256", sha256);
        return sha256;
    }
}
