package io.stowage.shardbuilder.api;

/**
 * JSON body of {@code POST /api/baselines/archive}.
 *
 * @param dir        absolute path of the directory to archive
 * @param model      model name (ASCII letters, digits, '.', '_', '-'; 1–200 characters)
 * @param milestone  milestone name (same alphabet)
 * @param stagingDir absolute staging root, optional (default {@code stowage.shard-builder.staging-dir})
 * @param dryRun     {@code true}: compute the archive's SHA-256 and key in a temporary directory, keep nothing,
 *                   publish nothing; optional, default false
 */
public record BaselineRequestBody(String dir, String model, String milestone, String stagingDir, Boolean dryRun) {
}
