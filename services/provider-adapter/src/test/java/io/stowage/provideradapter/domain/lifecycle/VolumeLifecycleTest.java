package io.stowage.provideradapter.domain.lifecycle;

import io.stowage.events.EventMeta;
import io.stowage.events.FailedCondition;
import io.stowage.events.GateDenied;
import io.stowage.events.PodTerminated;
import io.stowage.events.ProviderAlert;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.StowageEvent;
import io.stowage.events.VolumeCreated;
import io.stowage.events.VolumeDestroyed;
import io.stowage.events.VolumeQuota;
import io.stowage.events.VolumeReleased;
import io.stowage.provideradapter.domain.cost.CostCalculator;
import io.stowage.provideradapter.domain.cost.PriceTable;
import io.stowage.provideradapter.domain.resource.CapRule;
import io.stowage.provideradapter.domain.resource.ManagedPod;
import io.stowage.provideradapter.domain.resource.ManagedVolume;
import io.stowage.provideradapter.domain.resource.PodSpec;
import io.stowage.provideradapter.domain.resource.ProviderException;
import io.stowage.provideradapter.domain.resource.RunCap;
import io.stowage.provideradapter.domain.resource.VolumeSpec;
import io.stowage.provideradapter.compute.LocalComputeProvider;
import io.stowage.provideradapter.persistence.FileResourceStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The volume and pod lifecycles on the real local provider and file store, with instants passed in (no clock). */
class VolumeLifecycleTest {
    private static final Instant T0 = Instant.parse("2026-11-30T08:00:00Z");

    @TempDir
    Path root;
    @TempDir
    Path state;

    private LocalComputeProvider provider;
    private FileResourceStore store;
    private VolumeLifecycle volumes;
    private PodLifecycle pods;
    private CapSweep sweep;

    @BeforeEach
    void setUp() throws IOException {
        provider = new LocalComputeProvider(root);
        store = new FileResourceStore(state);
        CostCalculator costs = new CostCalculator(PriceTable.defaults());
        volumes = new VolumeLifecycle(provider, store, costs, "provider-adapter");
        pods = new PodLifecycle(provider, store, costs);
        sweep = new CapSweep(store, new CapRule(costs), volumes, pods, Duration.ofMinutes(10));
    }

    @Test
    void createMakesTheDirectoryWithItsQuotaAndSaysSo() throws IOException {
        LifecycleResult<ManagedVolume> created = volumes.create(spec(500, Duration.ofHours(72)), T0);

        ManagedVolume v = created.value();
        assertThat(Path.of(v.path())).isDirectory().hasParent(root.toRealPath());
        assertThat(VolumeQuota.of(Path.of(v.path(), "a", "b")).orElseThrow().quotaBytes())
                .isEqualTo(500_000_000_000L);
        VolumeCreated event = (VolumeCreated) created.events().get(0);
        assertThat(event.volumeId()).isEqualTo(v.id());
        assertThat(event.sizeGb()).isEqualTo(500);
        assertThat(event.ttlSeconds()).isEqualTo(259_200);
        assertThat(event.expiresAt()).isEqualTo(T0.plus(Duration.ofHours(72)));
        assertThat(event.path()).isEqualTo(v.path());
        assertThat(store.volume(v.id())).contains(v);
    }

    @Test
    void writesPastTheQuotaAreRefused() throws IOException {
        ManagedVolume v = volumes.create(spec(1, Duration.ZERO), T0).value();
        Path file = Path.of(v.path(), "ckpt", "model.pt");
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[600_000]);

        VolumeQuota.check(file.resolveSibling("optim.pt"), 999_400_000L); // 600,000 + 999,400,000 = 10^9: fits
        assertThatThrownBy(() -> VolumeQuota.check(file.resolveSibling("optim.pt"), 999_400_001L))
                .isInstanceOf(VolumeQuota.QuotaExceededException.class)
                .hasMessageContaining("quota 1000000000 bytes: 600000 used, refusing 999400001 more");
        VolumeQuota.check(root.resolveSibling("elsewhere"), Long.MAX_VALUE); // no volume, no quota
    }

    @Test
    void atItsTtlAVolumeWithFilesGoesThroughTheGateAndADenialBlocksItWithTheFileNamed() throws IOException {
        ManagedVolume v = volumes.create(spec(500, Duration.ofHours(72)), T0).value();
        Path notes = Files.writeString(Path.of(v.path(), "notes.txt"), "not archived");

        assertThat(sweep.run(T0.plus(Duration.ofHours(71))).events()).isEmpty();
        List<StowageEvent> atTtl = sweep.run(T0.plus(Duration.ofHours(72))).events();

        assertThat(atTtl).extracting(StowageEvent::topic).containsExactly("provider.alert", "volume.release.requested");
        assertThat(((ProviderAlert) atTtl.get(0)).code()).isEqualTo("ttl-reached");
        ReleaseRequested request = (ReleaseRequested) atTtl.get(1);
        assertThat(request.path()).isEqualTo(v.path());
        assertThat(request.dryRun()).isFalse();
        assertThat(store.volume(v.id()).orElseThrow().state()).isEqualTo(ManagedVolume.State.RELEASING);
        assertThat(sweep.run(T0.plus(Duration.ofHours(73))).events()).as("already waiting for the gate").isEmpty();

        GateDenied denied = GateDenied.of(meta(request), request.requestId(), v.path(), false,
                List.of(new FailedCondition(5, "unaccounted-file", notes + " is in no manifest")));
        LifecycleResult<ManagedVolume> blocked = volumes.onGateDenied(denied, T0.plus(Duration.ofHours(72)));

        ProviderAlert alert = (ProviderAlert) blocked.events().get(0);
        assertThat(alert.code()).isEqualTo("release-blocked");
        assertThat(alert.blockers()).containsExactly("5 unaccounted-file: " + notes + " is in no manifest");
        assertThat(alert.requestId()).isEqualTo(request.requestId());
        assertThat(blocked.value().state()).isEqualTo(ManagedVolume.State.BLOCKED);
        assertThat(notes).hasContent("not archived");
        assertThat(provider.volume(v.id())).isPresent();

        List<StowageEvent> again = sweep.run(T0.plus(Duration.ofHours(74))).events();
        assertThat(again).extracting(StowageEvent::topic).containsExactly("provider.alert", "volume.release.requested");
        assertThat(((ReleaseRequested) again.get(1)).requestId()).isNotEqualTo(request.requestId());
    }

    @Test
    void afterItsDirectoryWasReleasedTheVolumeIsDestroyedWithItsLifetimeCost() throws IOException {
        ManagedVolume v = volumes.create(spec(500, Duration.ofHours(72)), T0).value();
        Files.writeString(Path.of(v.path(), "step-100.pt"), "archived");
        ReleaseRequested request = (ReleaseRequested) sweep.run(T0.plus(Duration.ofHours(72))).events().get(1);
        // the provider-adapter's release handler deletes the directory after gate.passed, then says volume.released
        Files.delete(Path.of(v.path(), "step-100.pt"));
        Files.delete(Path.of(v.path()));
        VolumeReleased released = VolumeReleased.of(meta(request), request.requestId(), v.path(), "local", 1, 8);

        LifecycleResult<ManagedVolume> done = volumes.onVolumeReleased(released, T0.plus(Duration.ofHours(72)));

        VolumeDestroyed destroyed = (VolumeDestroyed) done.events().get(0);
        assertThat(destroyed.reason()).isEqualTo("ttl");
        assertThat(destroyed.releaseRequestId()).isEqualTo(request.requestId());
        assertThat(destroyed.lifetimeSeconds()).isEqualTo(259_200);
        // 500 GB x 0.07 x 72 h / 730 h = 3.452054794... -> 3.452055
        assertThat(destroyed.costUsd()).isEqualByComparingTo("3.452055");
        assertThat(provider.volume(v.id())).isEmpty();
        assertThat(root.resolve(v.id() + VolumeQuota.SUFFIX)).doesNotExist();
        assertThat(volumes.onVolumeReleased(released, T0.plus(Duration.ofHours(73))).events())
                .as("a redelivered volume.released changes nothing").isEmpty();
        assertThat(volumes.release(v.id(), "operator", T0.plus(Duration.ofHours(74))).events())
                .as("destroying a destroyed volume is a no-op").isEmpty();
    }

    @Test
    void anEmptyVolumeIsDestroyedAtItsTtlWithoutAGateAndTheProviderNeverDeletesFiles() throws IOException {
        ManagedVolume empty = volumes.create(spec(100, Duration.ofHours(1)), T0).value();
        Files.createDirectories(Path.of(empty.path(), "an", "empty", "tree"));
        ManagedVolume full = volumes.create(spec(100, Duration.ZERO), T0).value();
        Files.writeString(Path.of(full.path(), "data.bin"), "x");

        List<StowageEvent> events = sweep.run(T0.plus(Duration.ofHours(1))).events();

        assertThat(events).extracting(StowageEvent::topic).containsExactly("provider.alert", "volume.destroyed");
        // 100 GB x 0.07 x 1 h / 730 h = 7 / 730 = 0.009589041... -> 0.009589
        assertThat(((VolumeDestroyed) events.get(1)).costUsd()).isEqualByComparingTo("0.009589");
        assertThat(Path.of(empty.path())).doesNotExist();
        assertThatThrownBy(() -> provider.destroyVolume(full.id())).isInstanceOf(ProviderException.class)
                .hasMessageContaining("still holds files");
        assertThat(Path.of(full.path(), "data.bin")).exists();
    }

    @Test
    void aVolumeWhoseDirectoryIsMissingIsBlockedWithAnAlertNotDestroyed() throws IOException {
        ManagedVolume v = volumes.create(spec(100, Duration.ofHours(1)), T0).value();
        Files.delete(Path.of(v.path())); // the directory is gone: not mounted, removed outside Stowage, another host

        List<StowageEvent> events = sweep.run(T0.plus(Duration.ofHours(1))).events();

        assertThat(events).extracting(StowageEvent::topic).containsExactly("provider.alert", "provider.alert");
        ProviderAlert blocked = (ProviderAlert) events.get(1);
        assertThat(blocked.code()).isEqualTo("volume-not-seen");
        assertThat(blocked.blockers()).singleElement().asString().contains("volume directory " + v.path() + " is missing");
        assertThat(store.volume(v.id()).orElseThrow().state()).isEqualTo(ManagedVolume.State.BLOCKED);
        assertThat(provider.volume(v.id())).as("still on the provider").isPresent();
        assertThat(root.resolve(v.id() + VolumeQuota.SUFFIX)).exists();
    }

    @Test
    void anEmptyVolumeDirectoryWithoutItsMarkerIsBlockedNotDestroyed() throws IOException {
        ManagedVolume v = volumes.create(spec(100, Duration.ofHours(1)), T0).value();
        Files.delete(root.resolve(v.id() + VolumeQuota.SUFFIX)); // the marker lost: the directory is not known to be it

        List<StowageEvent> events = sweep.run(T0.plus(Duration.ofHours(1))).events();

        assertThat(events).extracting(StowageEvent::topic).doesNotContain("volume.destroyed", "volume.release.requested");
        assertThat(((ProviderAlert) events.get(1)).detail()).contains("marker", "is missing", "nothing destroyed");
        assertThat(store.volume(v.id()).orElseThrow().state()).isEqualTo(ManagedVolume.State.BLOCKED);
        assertThat(Path.of(v.path())).isEmptyDirectory();
        assertThat(sweep.run(T0.plus(Duration.ofHours(2))).events()).as("asked again, blocked again")
                .extracting(StowageEvent::topic).doesNotContain("volume.destroyed");
    }

    @Test
    void aMoneyCapReleasesAVolumeThroughTheGate() throws IOException {
        ManagedVolume v = volumes.create(new VolumeSpec("capped", "scratch", 500, Duration.ZERO,
                new BigDecimal("1.00"), null), T0).value();
        Files.writeString(Path.of(v.path(), "f"), "x");
        // 500 GB x 0.07 / 730 h = 0.047945... per hour: $1.00 is reached after 1 / 0.047945 = 20.857 h
        assertThat(sweep.run(T0.plus(Duration.ofHours(20))).events()).isEmpty();
        List<StowageEvent> events = sweep.run(T0.plus(Duration.ofHours(21))).events();
        assertThat(((ProviderAlert) events.get(0)).code()).isEqualTo("cap-reached");
        assertThat(events.get(1)).isInstanceOf(ReleaseRequested.class);
        assertThat(store.volume(v.id()).orElseThrow().releaseReason()).isEqualTo("cap");
    }

    @Test
    void aPodIsTerminatedAtItsMoneyCapWithItsCostAndTerminatingTwiceIsANoOp() {
        ManagedPod pod = pods.create(new PodSpec("train", "img", "NVIDIA A40", 1, new BigDecimal("0.74"), null,
                Duration.ZERO, new BigDecimal("1.00"), "run-7"), T0).value();
        // $0.74 per hour: after 1 h $0.74 < $1.00; after 2 h $1.48 >= $1.00
        assertThat(sweep.run(T0.plus(Duration.ofHours(1))).events()).isEmpty();
        List<StowageEvent> events = sweep.run(T0.plus(Duration.ofHours(2))).events();

        assertThat(events).extracting(StowageEvent::topic).containsExactly("provider.alert", "pod.terminated");
        PodTerminated terminated = (PodTerminated) events.get(1);
        assertThat(terminated.costUsd()).isEqualByComparingTo("1.48");
        assertThat(terminated.reason()).isEqualTo("cap");
        assertThat(provider.pod(pod.id())).isEmpty();
        assertThat(pods.terminate(pod.id(), "operator", T0.plus(Duration.ofHours(3))).events()).isEmpty();
    }

    @Test
    void aRunAtItsMoneyCapIsAskedToCheckpointThenStoppedAfterTheGracePeriod() throws IOException {
        ManagedVolume v = volumes.create(new VolumeSpec("run-vol", "scratch", 100, Duration.ZERO, null, "run-9"), T0)
                .value();
        Files.writeString(Path.of(v.path(), "step-1.pt"), "weights");
        ManagedPod pod = pods.create(new PodSpec("run-pod", "img", "NVIDIA A40", 1, new BigDecimal("0.74"), v.id(),
                Duration.ZERO, null, "run-9"), T0).value();
        ManagedPod other = pods.create(new PodSpec("other", "img", "none", 0, new BigDecimal("0.74"), null,
                Duration.ZERO, null, "run-10"), T0).value();
        store.save(new RunCap("run-9", new BigDecimal("1.00"), 0, null, T0, null, null));

        // after 1 h: pod 0.74 + volume 100 x 0.07 x 1 / 730 = 0.009589 -> 0.749589 < 1.00: nothing
        assertThat(sweep.run(T0.plus(Duration.ofHours(1))).events()).isEmpty();
        // after 2 h: 1.48 + 0.019178 = 1.499178 >= 1.00: checkpoint asked for, nothing stopped yet
        List<StowageEvent> asked = sweep.run(T0.plus(Duration.ofHours(2))).events();
        assertThat(asked).singleElement().isInstanceOfSatisfying(ProviderAlert.class, a -> {
            assertThat(a.code()).isEqualTo("checkpoint-requested");
            assertThat(a.resourceKind()).isEqualTo("run");
            assertThat(a.resourceId()).isEqualTo("run-9");
            assertThat(a.detail()).contains("spent 1.499178 USD", "2026-11-30T10:10:00Z");
        });
        assertThat(sweep.run(T0.plus(Duration.ofHours(2)).plus(Duration.ofMinutes(9))).events()).isEmpty();
        assertThat(provider.pod(pod.id())).isPresent();

        List<StowageEvent> stopped = sweep.run(T0.plus(Duration.ofHours(2)).plus(Duration.ofMinutes(10))).events();

        assertThat(stopped).extracting(StowageEvent::topic).containsExactly("provider.alert", "provider.alert",
                "pod.terminated", "provider.alert", "volume.release.requested");
        assertThat(((ProviderAlert) stopped.get(0)).code()).isEqualTo("cap-reached");
        assertThat(((PodTerminated) stopped.get(2)).reason()).isEqualTo("run-cap");
        assertThat(((ReleaseRequested) stopped.get(4)).path()).isEqualTo(v.path());
        assertThat(store.pod(other.id()).orElseThrow().running()).as("another run's pod runs on").isTrue();
        assertThat(Path.of(v.path(), "step-1.pt")).exists();
        assertThat(sweep.run(T0.plus(Duration.ofHours(3))).events()).as("a stopped run is stopped once").isEmpty();
    }

    @Test
    void aRunAtItsGpuHourCapIsAskedToCheckpointThenStoppedLikeAtItsMoneyCap() throws IOException {
        ManagedVolume v = volumes.create(new VolumeSpec("gpu-vol", "scratch", 100, Duration.ZERO, null, "run-g"), T0)
                .value();
        Files.writeString(Path.of(v.path(), "step-1.pt"), "weights");
        ManagedPod twoGpus = pods.create(new PodSpec("gpu-pod", "img", "NVIDIA A40", 2, new BigDecimal("0.01"), v.id(),
                Duration.ZERO, null, "run-g"), T0).value();
        ManagedPod cpu = pods.create(new PodSpec("cpu-pod", "img", "none", 0, new BigDecimal("0.01"), null,
                Duration.ZERO, null, "run-g"), T0).value();
        ManagedPod otherRun = pods.create(new PodSpec("other-gpu", "img", "NVIDIA A40", 8, new BigDecimal("0.01"), null,
                Duration.ZERO, null, "run-h"), T0).value();
        // a money cap far away: only the GPU hours can stop this run
        store.save(new RunCap("run-g", new BigDecimal("1000"), 0, new BigDecimal("5"), T0, null, null));

        // 2 GPUs x 2.5 h = 4.999... GPU hours just before: nothing (the CPU pod and the other run's 8 GPUs add 0)
        assertThat(sweep.run(T0.plus(Duration.ofMinutes(150)).minusSeconds(1)).events()).isEmpty();
        List<StowageEvent> asked = sweep.run(T0.plus(Duration.ofMinutes(150))).events();
        assertThat(asked).singleElement().isInstanceOfSatisfying(ProviderAlert.class, a -> {
            assertThat(a.code()).isEqualTo("checkpoint-requested");
            assertThat(a.resourceId()).isEqualTo("run-g");
            assertThat(a.detail()).contains("reached its GPU-hour cap of 5 GPU hours", "5.000000 GPU hours)",
                    "2026-11-30T10:40:00Z");
        });
        assertThat(store.runCaps()).singleElement().satisfies(c -> assertThat(c.checkpointRequestedAt())
                .isEqualTo(T0.plus(Duration.ofMinutes(150))));

        List<StowageEvent> stopped = sweep.run(T0.plus(Duration.ofMinutes(160))).events();

        assertThat(stopped).extracting(StowageEvent::topic).containsExactly("provider.alert", "provider.alert",
                "pod.terminated", "provider.alert", "pod.terminated", "provider.alert", "volume.release.requested");
        assertThat(((ProviderAlert) stopped.get(0)).code()).isEqualTo("cap-reached");
        assertThat(store.pod(twoGpus.id()).orElseThrow().reason()).isEqualTo("run-cap");
        assertThat(store.pod(cpu.id()).orElseThrow().reason()).isEqualTo("run-cap");
        assertThat(store.pod(otherRun.id()).orElseThrow().running()).as("another run's pod runs on").isTrue();
        assertThat(Path.of(v.path(), "step-1.pt")).as("released through the gate, not deleted").exists();
    }

    @Test
    void gpuHoursAreEachPodsGpuCountTimesItsHoursAliveAndACpuPodAddsNothing() {
        CapRule rule = new CapRule(new CostCalculator(PriceTable.defaults()));
        ManagedPod a40 = new ManagedPod("p1", "local", "a", "NVIDIA A40", 4, BigDecimal.ONE, null, T0, null, null,
                "r", T0.plus(Duration.ofMinutes(90)), "operator");
        ManagedPod h100 = new ManagedPod("p2", "local", "b", "NVIDIA H100", 1, BigDecimal.ONE, null,
                T0.plus(Duration.ofHours(1)), null, null, "r", null, null);
        ManagedPod cpu = new ManagedPod("p3", "local", "c", "none", 0, BigDecimal.ONE, null, T0, null, null, "r", null,
                null);
        Instant now = T0.plus(Duration.ofHours(3));

        // 4 x 1.5 h (terminated at 90 min) + 1 x 2 h (still running) + 0 x 3 h = 8 GPU hours
        assertThat(rule.gpuHours(List.of(a40, h100, cpu), now)).isEqualByComparingTo("8");
        assertThat(rule.due(new RunCap("r", null, 0, new BigDecimal("8"), T0, null, null), List.of(),
                List.of(a40, h100, cpu), now)).contains("gpu-hours");
        assertThat(rule.due(new RunCap("r", null, 0, new BigDecimal("8.001"), T0, null, null), List.of(),
                List.of(a40, h100, cpu), now)).isEmpty();
        assertThat(rule.due(new RunCap("r", null, 0, new BigDecimal("0.5"), T0, null, null), List.of(),
                List.of(cpu), now)).as("CPU pods never reach a GPU-hour cap").isEmpty();
        assertThatThrownBy(() -> new RunCap("r", null, 0, BigDecimal.ZERO, T0, null, null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static VolumeSpec spec(int sizeGb, Duration ttl) {
        return new VolumeSpec("scratch-" + UUID.randomUUID().toString().substring(0, 6), "scratch", sizeGb, ttl,
                null, "run-7");
    }

    private static EventMeta meta(StowageEvent cause) {
        return new EventMeta(UUID.randomUUID().toString(), 1, cause.meta().time(), cause.meta().correlationId(),
                cause.meta().eventId());
    }
}
