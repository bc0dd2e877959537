package io.stowage.cli.platform;

import io.stowage.cli.CliException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which services {@code stowage up --instances} may run several times, and how their instances are named. */
class ServiceInstancesTest {

    @Test
    void theUploaderVerifierGatekeeperAndProviderAdapterMayRunSeveralTimesUpToFour() {
        assertThatCode(() -> ServiceLauncher.requireInstances(Map.of("uploader", 2, "verifier", 4, "gatekeeper", 3,
                "ledger", 1, "provider-adapter", 2))).doesNotThrowAnyException();
        assertThat(ServiceLauncher.STANDBY_SERVICES).as("one active provider-adapter, the others standby")
                .containsExactly("provider-adapter");
    }

    @Test
    void theLedgerAndTheShardBuilderAreRefusedNamingWhatMay() {
        for (String service : new String[] {"ledger", "shard-builder"}) {
            assertThatThrownBy(() -> ServiceLauncher.requireInstances(Map.of(service, 2)))
                    .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exitCode()).isEqualTo(CliException.USAGE))
                    .hasMessage("--instances " + service + "=2: the " + service + " runs as one instance only; several"
                            + " instances: uploader, verifier, gatekeeper, provider-adapter");
        }
    }

    @Test
    void stowageUpRefusesItBeforeStartingAnythingWithOneLineAndExitTwo() {
        io.stowage.cli.CliRun.Result up = io.stowage.cli.CliRun.run("up", "--instances", "uploader=2,ledger=2");
        assertThat(up.exit()).isEqualTo(CliException.USAGE);
        assertThat(up.err().strip()).contains("--instances ledger=2: the ledger runs as one instance only")
                .doesNotContain("\n").doesNotContain("starting Kafka");
        assertThat(io.stowage.cli.CliRun.run("up", "--instances", "verifier=two").exit()).as("not a number")
                .isEqualTo(CliException.USAGE);
    }

    @Test
    void eachUploaderInstanceIsToldTheOtherUploadersStateDirectoriesAndNoOneElseIs() {
        java.nio.file.Path logs = java.nio.file.Path.of("/home/s/logs");
        Map<String, String> serviceOf = new java.util.LinkedHashMap<>();
        serviceOf.put("uploader", "uploader");
        serviceOf.put("uploader-2", "uploader");
        serviceOf.put("uploader-3", "uploader");
        serviceOf.put("verifier", "verifier");
        serviceOf.put("verifier-2", "verifier");
        assertThat(ServiceLauncher.uploaderPeers(serviceOf, "uploader", logs)).containsExactly(
                java.nio.file.Path.of("/home/s/state/uploader-2"), java.nio.file.Path.of("/home/s/state/uploader-3"));
        assertThat(ServiceLauncher.uploaderPeers(serviceOf, "uploader-2", logs)).containsExactly(
                java.nio.file.Path.of("/home/s/state/uploader"), java.nio.file.Path.of("/home/s/state/uploader-3"));
        assertThat(ServiceLauncher.uploaderPeers(serviceOf, "verifier-2", logs)).isEmpty();
        assertThat(ServiceLauncher.uploaderPeers(Map.of("uploader", "uploader", "verifier", "verifier"), "uploader", logs))
                .as("a single uploader has no peers").isEmpty();
    }

    @Test
    void theStepsPendingInTheStateOfAnUploaderNotStartedNowAreCounted(@TempDir java.nio.file.Path home)
            throws Exception {
        java.nio.file.Path logs = home.resolve("logs");
        java.nio.file.Path state = home.resolve("state");
        write(state.resolve("uploader/pointers/step-1.json"));
        write(state.resolve("uploader-2/pointers/step-2.json"));
        write(state.resolve("uploader-2/pointers/step-2.results"));
        write(state.resolve("uploader-2/pointers/step-3.json"));
        write(state.resolve("uploader-2/pointers/step-4.json.tmp"));
        write(state.resolve("uploader-2/pointers/run-5.step"));
        write(state.resolve("uploader-3/pointers/run-6.step"));
        write(state.resolve("uploader-4/uploads/journal.json"));
        write(state.resolve("provider-adapter/pointers/step-7.json"));

        assertThat(ServiceLauncher.strandedPendingSteps(logs, java.util.Set.of("uploader", "verifier")))
                .as("instance 2's two steps; instance 3 has no step pending, 4 no pointer state")
                .containsExactly(Map.entry("uploader-2", 2));
        assertThat(ServiceLauncher.strandedPendingSteps(logs, java.util.Set.of("uploader", "uploader-2")))
                .as("started again, it writes them itself").isEmpty();
        assertThat(ServiceLauncher.strandedPendingSteps(home.resolve("elsewhere/logs"), java.util.Set.of("uploader")))
                .as("a home without state").isEmpty();
    }

    private static void write(java.nio.file.Path file) throws java.io.IOException {
        java.nio.file.Files.createDirectories(file.getParent());
        java.nio.file.Files.writeString(file, "{}");
    }

    @Test
    void anUnknownServiceOrANumberOutOfRangeIsRefused() {
        assertThatThrownBy(() -> ServiceLauncher.requireInstances(Map.of("uplaoder", 2))).isInstanceOf(CliException.class)
                .hasMessageStartingWith("--instances: no service uplaoder (one of ledger, shard-builder, uploader");
        assertThatThrownBy(() -> ServiceLauncher.requireInstances(Map.of("uploader", 0))).isInstanceOf(CliException.class)
                .hasMessage("--instances uploader=0: between 1 and 4");
        assertThatThrownBy(() -> ServiceLauncher.requireInstances(Map.of("verifier", 5))).isInstanceOf(CliException.class)
                .hasMessage("--instances verifier=5: between 1 and 4");
    }

    @Test
    void instanceOneIsNamedAfterItsServiceTheOthersCarryTheirNumber() {
        assertThat(ServiceLauncher.instanceName("uploader", 1)).isEqualTo("uploader");
        assertThat(ServiceLauncher.instanceName("provider-adapter", 2)).isEqualTo("provider-adapter-2");
        assertThat(ServiceLauncher.serviceOf("provider-adapter-2")).contains("provider-adapter");
        assertThat(ServiceLauncher.serviceOf("provider-adapter")).contains("provider-adapter");
        assertThat(ServiceLauncher.serviceOf("uploader-12")).contains("uploader");
        assertThat(ServiceLauncher.serviceOf("console")).isEmpty();
        assertThat(ServiceLauncher.serviceOf("uploader-x")).isEmpty();
        assertThat(ServiceLauncher.serviceOf("uploader-0")).isEmpty();
    }

    @Test
    void theConsoleIsGivenEveryInstanceOfAServiceInInstanceOrderAndNoOtherService() {
        Map<String, String> urls = new java.util.LinkedHashMap<>();
        urls.put("verifier", "http://127.0.0.1:1");
        urls.put("provider-adapter", "http://127.0.0.1:2");
        urls.put("provider-adapter-2", "http://127.0.0.1:3");
        urls.put("gatekeeper", "http://127.0.0.1:4");
        urls.put("console", "http://127.0.0.1:5");
        assertThat(ServiceLauncher.instanceUrls(urls, "provider-adapter")).isEqualTo("http://127.0.0.1:2,http://127.0.0.1:3");
        assertThat(ServiceLauncher.instanceUrls(urls, "verifier")).isEqualTo("http://127.0.0.1:1");
        assertThat(ServiceLauncher.instanceUrls(urls, "gatekeeper")).isEqualTo("http://127.0.0.1:4");
    }
}
