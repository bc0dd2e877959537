package io.stowage.provideradapter.compute;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.stowage.events.EventCodec;
import io.stowage.events.VolumeQuota;
import io.stowage.provideradapter.domain.resource.ComputeProvider;
import io.stowage.provideradapter.domain.resource.PodSpec;
import io.stowage.provideradapter.domain.resource.ProviderException;
import io.stowage.provideradapter.domain.resource.ProvisionedPod;
import io.stowage.provideradapter.domain.resource.ProvisionedVolume;
import io.stowage.provideradapter.domain.resource.VolumeSpec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The "local" provider: a volume is the directory {@code <root>/vol-<uuid>} with its quota (size x 10^9 bytes) in
 * the sibling file {@code vol-<uuid>.quota} ({@link VolumeQuota}, checked by our writers); a pod is a record
 * {@code <root>/.pods/pod-<uuid>.json} — no process runs, it stands for a machine whose cost is being counted.
 * Destroying a volume removes only a directory holding no file (empty directories only): its files are deleted through the gate
 * (gate.passed → release), never here. Blocking I/O.
 */
public final class LocalComputeProvider implements ComputeProvider {
    private static final long BYTES_PER_GB = 1_000_000_000L;
    private final Path root;
    private final ObjectMapper json = EventCodec.mapper();

    /** @param root {@code stowage.provider-adapter.volumes-root}, created when missing */
    public LocalComputeProvider(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    @Override
    public String name() {
        return "local";
    }

    @Override
    public ProvisionedVolume createVolume(VolumeSpec spec) {
        String id = "vol-" + UUID.randomUUID();
        Path dir = root.resolve(id);
        try {
            Files.createDirectories(dir);
            VolumeQuota.write(dir, spec.sizeGb() * BYTES_PER_GB);
            Files.writeString(root.resolve(id + ".name"), spec.name());
        } catch (IOException e) {
            throw new ProviderException(0, false, "cannot create volume directory " + dir + ": " + e.getMessage());
        }
        return new ProvisionedVolume(id, spec.name(), spec.sizeGb(), dir.toString());
    }

    @Override
    public boolean destroyVolume(String volumeId) {
        Path dir = volumeDir(volumeId);
        try {
            boolean existed = Files.exists(dir, LinkOption.NOFOLLOW_LINKS);
            if (existed) {
                List<Path> tree;
                try (Stream<Path> entries = Files.walk(dir)) {
                    tree = entries.sorted(java.util.Comparator.reverseOrder()).toList();
                }
                if (!tree.stream().allMatch(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))) {
                    throw new ProviderException(0, true, "volume " + volumeId + " still holds files: release "
                            + dir + " through the gate first; nothing destroyed");
                }
                for (Path empty : tree) { // deepest first: only empty directories are left to remove
                    Files.delete(empty);
                }
            }
            boolean hadQuota = Files.deleteIfExists(root.resolve(volumeId + VolumeQuota.SUFFIX));
            Files.deleteIfExists(root.resolve(volumeId + ".name"));
            return existed || hadQuota;
        } catch (IOException e) {
            throw new ProviderException(0, false, "cannot destroy volume " + volumeId + ": " + e.getMessage());
        }
    }

    @Override
    public Optional<ProvisionedVolume> volume(String volumeId) {
        Path quotaFile = root.resolve(volumeDir(volumeId).getFileName() + VolumeQuota.SUFFIX);
        if (!Files.isRegularFile(quotaFile)) {
            return Optional.empty();
        }
        try {
            long bytes = VolumeQuota.of(volumeDir(volumeId)).map(VolumeQuota::quotaBytes).orElse(0L);
            Path nameFile = root.resolve(volumeId + ".name");
            String name = Files.exists(nameFile) ? Files.readString(nameFile) : volumeId;
            return Optional.of(new ProvisionedVolume(volumeId, name, (int) (bytes / BYTES_PER_GB),
                    volumeDir(volumeId).toString()));
        } catch (IOException e) {
            throw new ProviderException(0, false, "cannot read volume " + volumeId + ": " + e.getMessage());
        }
    }

    /** A volume directory is seen when it is a directory (not a symlink) and its sibling quota file, the marker, exists. */
    @Override
    public Optional<String> notSeen(String volumeId, Path path) {
        Path dir = path.toAbsolutePath().normalize();
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.of("volume directory " + dir + " is missing (removed outside Stowage, or not on this "
                    + "machine): not taken for an empty volume");
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.of(dir + " is not a directory (a symlink or a file): not the volume");
        }
        Path marker = dir.resolveSibling(dir.getFileName() + VolumeQuota.SUFFIX);
        if (!Files.isRegularFile(marker, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.of("marker " + marker + " of volume directory " + dir + " is missing: the directory "
                    + "is not known to be the volume " + volumeId);
        }
        return Optional.empty();
    }

    @Override
    public List<ProvisionedVolume> volumes() {
        List<ProvisionedVolume> all = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return all;
        }
        try (Stream<Path> entries = Files.list(root)) {
            entries.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(VolumeQuota.SUFFIX)).sorted()
                    .forEach(n -> volume(n.substring(0, n.length() - VolumeQuota.SUFFIX.length())).ifPresent(all::add));
        } catch (IOException e) {
            throw new ProviderException(0, false, "cannot list " + root + ": " + e.getMessage());
        }
        return all;
    }

    @Override
    public ProvisionedPod createPod(PodSpec spec) {
        ProvisionedPod pod = new ProvisionedPod("pod-" + UUID.randomUUID(), spec.name(), spec.costPerHourUsd(),
                "RUNNING");
        try {
            Files.createDirectories(podsDir());
            json.writeValue(podsDir().resolve(pod.id() + ".json").toFile(), pod);
        } catch (IOException e) {
            throw new ProviderException(0, false, "cannot record pod " + spec.name() + ": " + e.getMessage());
        }
        return pod;
    }

    @Override
    public boolean terminatePod(String podId) {
        try {
            return Files.deleteIfExists(podsDir().resolve(segment(podId) + ".json"));
        } catch (IOException e) {
            throw new ProviderException(0, false, "cannot terminate pod " + podId + ": " + e.getMessage());
        }
    }

    @Override
    public Optional<ProvisionedPod> pod(String podId) {
        Path file = podsDir().resolve(segment(podId) + ".json");
        try {
            return Files.exists(file) ? Optional.of(json.readValue(file.toFile(), ProvisionedPod.class))
                    : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public List<ProvisionedPod> pods() {
        if (!Files.isDirectory(podsDir())) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(podsDir())) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted()
                    .map(n -> pod(n.substring(0, n.length() - 5))).flatMap(Optional::stream).toList();
        } catch (IOException e) {
            throw new ProviderException(0, false, "cannot list pods: " + e.getMessage());
        }
    }

    private Path podsDir() {
        return root.resolve(".pods");
    }

    private Path volumeDir(String volumeId) {
        return root.resolve(segment(volumeId));
    }

    // an id from a request must name one entry of the root, never a path
    private static String segment(String id) {
        if (id == null || !id.matches("[A-Za-z0-9._-]+") || id.startsWith(".")) {
            throw new ProviderException(400, true, "not a local resource id: " + id);
        }
        return id;
    }
}
