package io.stowage.events;

import java.util.List;

/**
 * Where a checkpoint came from, read from the run's experiment capsule ({@code experiment.json} beside
 * the step directories) and the step's {@code provenance.json}. Any field may be null. Gate condition 3
 * needs the first three: a checkpoint lacking one is still archived, but the gate denies its release.
 * The other fields are recorded for reproduction (schema version 1 added them; readers of the
 * three-field form see them as null).
 *
 * @param codeCommit         git commit of the training code
 * @param configSha256       SHA-256 of the training configuration
 * @param dataManifestSha256 SHA-256 of the dataset manifest the run trained on
 * @param experimentId       the experiment's id as the capsule names it
 * @param codeClean          true when the working tree had no uncommitted change at that commit; null when unknown
 * @param seed               the random seed
 * @param runtimeProfile     the runtime profile (e.g. "cpu-torch-1.13", a pod template name)
 * @param imageDigest        the container image digest ({@code sha256:…}), when the run was in a container
 * @param entrypoint         the program started (script or module)
 * @param args               its arguments, in order; never null when read from a capsule
 * @param hardware           a one-line description of the hardware (accelerators, CPUs, memory)
 */
public record Provenance(String codeCommit, String configSha256, String dataManifestSha256, String experimentId,
                         Boolean codeClean, Long seed, String runtimeProfile, String imageDigest, String entrypoint,
                         List<String> args, String hardware) {

    /** The three fields of gate condition 3 only; every other field null. */
    public Provenance(String codeCommit, String configSha256, String dataManifestSha256) {
        this(codeCommit, configSha256, dataManifestSha256, null, null, null, null, null, null, null, null);
    }

    /** @return true when all three fields of gate condition 3 are present */
    public boolean complete() {
        return missing().isEmpty();
    }

    /** @return the names of the gate-condition-3 fields that are absent ("code commit", "config hash", "data manifest"), in that order */
    public List<String> missing() {
        java.util.List<String> absent = new java.util.ArrayList<>();
        if (!present(codeCommit)) {
            absent.add("code commit");
        }
        if (!present(configSha256)) {
            absent.add("config hash");
        }
        if (!present(dataManifestSha256)) {
            absent.add("data manifest");
        }
        return List.copyOf(absent);
    }

    private static boolean present(String value) {
        return value != null && !value.isBlank();
    }
}
