package io.stowage.provideradapter.domain.resource;

import java.util.List;
import java.util.Optional;

/** Durable state of the volumes and pods the provider-adapter manages (a file per resource in its state dir). */
public interface ResourceStore {

    /** Writes (creates or replaces) the volume's record durably. @throws java.io.UncheckedIOException on I/O failure */
    void save(ManagedVolume volume);

    /** Writes (creates or replaces) the pod's record durably. @throws java.io.UncheckedIOException on I/O failure */
    void save(ManagedPod pod);

    /** @return the volume's record, empty when unknown */
    Optional<ManagedVolume> volume(String id);

    /** @return the pod's record, empty when unknown */
    Optional<ManagedPod> pod(String id);

    /** @return every volume record, destroyed ones included, oldest first */
    List<ManagedVolume> volumes();

    /** @return every pod record, terminated ones included, oldest first */
    List<ManagedPod> pods();

    /** Writes (creates or replaces) a run's cap durably. @throws java.io.UncheckedIOException on I/O failure */
    void save(RunCap cap);

    /** @return every run cap, by run id */
    List<RunCap> runCaps();
}
