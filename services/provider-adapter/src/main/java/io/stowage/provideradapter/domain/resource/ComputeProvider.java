package io.stowage.provideradapter.domain.resource;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Creates and destroys volumes and pods on one infrastructure ("local" directories or RunPod's REST API).
 * Every call is idempotent as seen by the caller: destroying a volume or terminating a pod that no longer exists
 * answers {@code false} instead of failing; creation is not repeated by the implementations themselves after an
 * answer was received. Implementations retry transient failures (5xx, 429, I/O) and throw
 * {@link ProviderException} when a call is refused (permanent) or the retries run out.
 */
public interface ComputeProvider {

    /** @return "local" or "runpod", recorded in every event */
    String name();

    /** @return the created volume with its id and the directory its files are seen at */
    ProvisionedVolume createVolume(VolumeSpec spec);

    /** @return true when it was destroyed now, false when it did not exist (already gone) */
    boolean destroyVolume(String volumeId);

    /** @return the volume, empty when it does not exist */
    Optional<ProvisionedVolume> volume(String volumeId);

    /**
     * Tells whether this machine sees the volume's own files at {@code path}, so that an empty directory can be
     * taken for an empty volume: a directory that is missing, is not where the volume is mounted, or has lost the
     * provider's marker is not the volume, and an empty one proves nothing.
     *
     * @param path the volume's directory ({@link ProvisionedVolume#path()})
     * @return one line saying why its files are not seen there, empty when they are
     */
    Optional<String> notSeen(String volumeId, Path path);

    /** @return every volume the provider holds for this account or root */
    List<ProvisionedVolume> volumes();

    /** @return the created pod */
    ProvisionedPod createPod(PodSpec spec);

    /** @return true when it was terminated now, false when it did not exist (already gone) */
    boolean terminatePod(String podId);

    /** @return the pod, empty when it does not exist */
    Optional<ProvisionedPod> pod(String podId);

    /** @return every pod */
    List<ProvisionedPod> pods();
}
