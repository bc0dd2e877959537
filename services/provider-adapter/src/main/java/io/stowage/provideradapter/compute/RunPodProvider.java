package io.stowage.provideradapter.compute;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.stowage.events.EventCodec;
import io.stowage.provideradapter.domain.resource.ComputeProvider;
import io.stowage.provideradapter.domain.resource.PodSpec;
import io.stowage.provideradapter.domain.resource.ProviderException;
import io.stowage.provideradapter.domain.resource.ProvisionedPod;
import io.stowage.provideradapter.domain.resource.ProvisionedVolume;
import io.stowage.provideradapter.domain.resource.RetryPolicy;
import io.stowage.provideradapter.domain.resource.VolumeSpec;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The "runpod" provider on RunPod's public REST API v1: {@code POST/GET/DELETE /networkvolumes[/{id}]} (body
 * {@code name, size (GB), dataCenterId}) and {@code POST/GET/DELETE /pods[/{id}]} (body {@code name, imageName,
 * computeType, gpuTypeIds, gpuCount, networkVolumeId, volumeMountPath}); the pod's price is RunPod's
 * {@code costPerHr}. A 404 on delete means already gone (false); a create that failed with a 5xx is looked up by
 * name before it is sent again. A volume's files are seen at {@code <mount-root>/<volume id>} on this machine.
 * Only ever run against a local imitation of the API (WireMock): see docs/design/provider.md.
 */
public final class RunPodProvider implements ComputeProvider {
    private final RunPodHttp http;
    private final String dataCenterId;
    private final Path mountRoot;

    /**
     * @param baseUrl      {@code stowage.provider-adapter.runpod.base-url}, e.g. https://rest.runpod.io/v1
     * @param apiKeyFile   the secrets-mount file holding the API key
     * @param dataCenterId where volumes are created, e.g. "EU-RO-1"
     * @param mountRoot    where this machine sees network volumes (one directory per volume id)
     * @throws IOException when the key file cannot be read (the message names the file only)
     */
    public RunPodProvider(URI baseUrl, Path apiKeyFile, String dataCenterId, Path mountRoot, RetryPolicy retry,
                          Clock clock) throws IOException {
        this(new RunPodHttp(baseUrl, RunPodApiKey.read(apiKeyFile), retry, d -> Thread.sleep(d.toMillis()), clock),
                dataCenterId, mountRoot);
    }

    RunPodProvider(RunPodHttp http, String dataCenterId, Path mountRoot) {
        this.http = http;
        this.dataCenterId = dataCenterId;
        this.mountRoot = mountRoot.toAbsolutePath().normalize();
    }

    @Override
    public String name() {
        return "runpod";
    }

    @Override
    public ProvisionedVolume createVolume(VolumeSpec spec) {
        ObjectNode body = EventCodec.mapper().createObjectNode()
                .put("name", spec.name()).put("size", spec.sizeGb()).put("dataCenterId", dataCenterId);
        JsonNode created = http.call("POST", "networkvolumes", body, () -> volumeNamed(spec.name()))
                .orElseThrow(() -> new ProviderException(404, true, "RunPod POST /networkvolumes answered 404"));
        return volumeOf(created);
    }

    @Override
    public boolean destroyVolume(String volumeId) {
        return http.call("DELETE", "networkvolumes/" + id(volumeId), null).isPresent();
    }

    /**
     * A network volume is seen when its directory is a mount point: a directory whose device id differs from its
     * parent's. An unmounted (or never mounted) path is an ordinary, often empty, directory and proves nothing.
     */
    @Override
    public Optional<String> notSeen(String volumeId, Path path) {
        Path dir = path.toAbsolutePath().normalize();
        try {
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                return Optional.of("network volume " + volumeId + " is not mounted at " + dir + " (no directory)");
            }
            Object device = Files.getAttribute(dir, "unix:dev", LinkOption.NOFOLLOW_LINKS);
            Object parent = Files.getAttribute(dir.getParent(), "unix:dev");
            if (device.equals(parent)) {
                return Optional.of("network volume " + volumeId + " is not mounted at " + dir
                        + " (same device as its parent): an empty directory there is not the volume");
            }
            return Optional.empty();
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.of("cannot tell whether network volume " + volumeId + " is mounted at " + dir + ": " + e);
        }
    }

    @Override
    public Optional<ProvisionedVolume> volume(String volumeId) {
        return http.call("GET", "networkvolumes/" + id(volumeId), null).map(this::volumeOf);
    }

    @Override
    public List<ProvisionedVolume> volumes() {
        List<ProvisionedVolume> all = new ArrayList<>();
        http.call("GET", "networkvolumes", null).ifPresent(list -> list.forEach(v -> all.add(volumeOf(v))));
        return all;
    }

    @Override
    public ProvisionedPod createPod(PodSpec spec) {
        ObjectNode body = EventCodec.mapper().createObjectNode().put("name", spec.name());
        if (spec.imageName() != null) {
            body.put("imageName", spec.imageName());
        }
        boolean gpu = spec.gpuCount() > 0 && !"none".equals(spec.gpuTypeId());
        body.put("computeType", gpu ? "GPU" : "CPU");
        if (gpu) {
            body.putArray("gpuTypeIds").add(spec.gpuTypeId());
            body.put("gpuCount", spec.gpuCount());
        }
        if (spec.volumeId() != null) {
            body.put("networkVolumeId", spec.volumeId()).put("volumeMountPath", "/workspace");
        }
        JsonNode created = http.call("POST", "pods", body, () -> podNamed(spec.name()))
                .orElseThrow(() -> new ProviderException(404, true, "RunPod POST /pods answered 404"));
        return podOf(created);
    }

    @Override
    public boolean terminatePod(String podId) {
        return http.call("DELETE", "pods/" + id(podId), null).isPresent();
    }

    @Override
    public Optional<ProvisionedPod> pod(String podId) {
        return http.call("GET", "pods/" + id(podId), null).map(RunPodProvider::podOf);
    }

    @Override
    public List<ProvisionedPod> pods() {
        List<ProvisionedPod> all = new ArrayList<>();
        http.call("GET", "pods", null).ifPresent(list -> list.forEach(p -> all.add(podOf(p))));
        return all;
    }

    private Optional<JsonNode> volumeNamed(String name) {
        return http.call("GET", "networkvolumes", null).flatMap(list -> named(list, name));
    }

    private Optional<JsonNode> podNamed(String name) {
        return http.call("GET", "pods", null).flatMap(list -> named(list, name));
    }

    private static Optional<JsonNode> named(JsonNode list, String name) {
        for (JsonNode item : list) {
            if (name.equals(item.path("name").asText(null))) {
                return Optional.of(item);
            }
        }
        return Optional.empty();
    }

    private ProvisionedVolume volumeOf(JsonNode v) {
        String id = required(v, "id");
        return new ProvisionedVolume(id, v.path("name").asText(id), v.path("size").asInt(),
                mountRoot.resolve(id(id)).toString());
    }

    private static ProvisionedPod podOf(JsonNode p) {
        String id = required(p, "id");
        // costPerHr is a string ("0.74") in RunPod's documented answer; a number is accepted too
        JsonNode cost = p.path("costPerHr");
        BigDecimal perHour = cost.isMissingNode() || cost.isNull() ? BigDecimal.ZERO : new BigDecimal(cost.asText());
        return new ProvisionedPod(id, p.path("name").asText(id), perHour, p.path("desiredStatus").asText("UNKNOWN"));
    }

    private static String required(JsonNode node, String field) {
        if (!node.hasNonNull(field)) {
            throw new ProviderException(0, true, "RunPod answer has no " + field + ": " + node);
        }
        return node.get(field).asText();
    }

    // RunPod ids are short alphanumerics; anything else must not reach a URL path or a directory name
    private static String id(String id) {
        if (id == null || !id.matches("[A-Za-z0-9_-]+")) {
            throw new ProviderException(400, true, "not a RunPod id: " + id);
        }
        return id;
    }
}
