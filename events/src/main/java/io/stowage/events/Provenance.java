package io.stowage.events;

/**
 * What a checkpoint must record to pass gate condition 3, read from the run's experiment capsule
 * ({@code provenance.json} in the step directory). Any field may be null: the checkpoint is still
 * archived, but the gate denies its release.
 *
 * @param codeCommit         git commit of the training code
 * @param configSha256       SHA-256 of the training configuration
 * @param dataManifestSha256 SHA-256 of the dataset manifest the run trained on
 */
public record Provenance(String codeCommit, String configSha256, String dataManifestSha256) {
    /** @return true when all three fields are present */
    public boolean complete() {
        return present(codeCommit) && present(configSha256) && present(dataManifestSha256);
    }

    private static boolean present(String value) {
        return value != null && !value.isBlank();
    }
}
