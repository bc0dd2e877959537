package io.stowage.cli.run;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.client.ProviderClient;
import io.stowage.cli.platform.ServiceLauncher;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's pods and temporary volumes at the provider-adapter (those created with {@code --run RUN}): terminates
 * every running pod, then asks for every live volume's release through the gate and waits (bounded) for the gate's
 * answer; a denied volume stays BLOCKED, nothing on it is deleted.
 */
public final class ProviderRunResources implements RunStopper.Resources {
    private final ProviderClient provider;
    private final String runId;
    private final Duration gateWait;

    /**
     * @param runId    the provider run id the pods and volumes were created with
     * @param gateWait how long to wait for the gate on each volume
     */
    public ProviderRunResources(ProviderClient provider, String runId, Duration gateWait) {
        this.provider = provider;
        this.runId = runId;
        this.gateWait = gateWait;
    }

    @Override
    public List<String> terminatePods() {
        List<String> lines = new ArrayList<>();
        for (JsonNode pod : provider.pods()) {
            if (runId.equals(pod.path("runId").asText()) && !pod.hasNonNull("terminatedAt")) {
                JsonNode done = provider.terminatePod(pod.path("id").asText());
                lines.add(pod.path("id").asText() + " terminated at " + done.path("terminatedAt").asText());
            }
        }
        return lines;
    }

    @Override
    public List<String> releaseVolumes() {
        List<String> lines = new ArrayList<>();
        for (JsonNode volume : provider.volumes()) {
            String state = volume.path("state").asText();
            if (runId.equals(volume.path("runId").asText()) && !"DESTROYED".equals(state)) {
                String id = volume.path("id").asText();
                JsonNode now = provider.releaseVolume(id);
                Instant deadline = Instant.now().plus(gateWait);
                while ("RELEASING".equals(now.path("state").asText()) && Instant.now().isBefore(deadline)) {
                    ServiceLauncher.pause(500);
                    now = provider.volume(id).orElseThrow();
                }
                List<String> blockers = new ArrayList<>();
                now.path("blockers").forEach(b -> blockers.add(b.asText()));
                lines.add(id + " " + now.path("state").asText() + (blockers.isEmpty() ? "" : " (blocked by " + String.join("; ", blockers) + ")"));
            }
        }
        return lines;
    }
}
