package io.stowage.stack;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The choice between the embedded and the containers stack; nothing here starts a container. */
class StackBackendTest {
    private static final String NO_DOCKER = "-Dstowage.stack=containers needs a Docker engine; none is reachable: ";

    @Test
    void embeddedIsTheDefaultAndThePropertyWinsOverTheEnvironment() {
        assertThat(StackBackend.select(null, null)).isEqualTo(StackBackend.EMBEDDED);
        assertThat(StackBackend.select(" ", "")).isEqualTo(StackBackend.EMBEDDED);
        assertThat(StackBackend.select("containers", null)).isEqualTo(StackBackend.CONTAINERS);
        assertThat(StackBackend.select(null, " Containers ")).isEqualTo(StackBackend.CONTAINERS);
        assertThat(StackBackend.select("embedded", "containers")).isEqualTo(StackBackend.EMBEDDED);
        assertThat(StackBackend.select("", "containers")).isEqualTo(StackBackend.CONTAINERS);
    }

    @Test
    void anUnknownValueIsRefusedNamingTheAllowedOnes() {
        assertThatIllegalArgumentException().isThrownBy(() -> StackBackend.select("docker", "embedded"))
                .withMessage("unknown stowage stack 'docker' (from -Dstowage.stack or STOWAGE_STACK);"
                        + " allowed: embedded, containers (default embedded)");
        assertThatIllegalArgumentException().isThrownBy(() -> StackBackend.select(null, "testcontainers"))
                .withMessageContaining("'testcontainers'");
    }

    @Test
    void containersWithoutDockerFailWithOneClearMessage() {
        assertThatIllegalStateException()
                .isThrownBy(() -> StackBackend.requireDocker(true, () -> "no socket at /var/run/docker.sock"))
                .withMessage(NO_DOCKER + "no socket at /var/run/docker.sock. Start Docker, or leave out"
                        + " -Dstowage.stack to use the embedded stack");
        assertThatNoException().isThrownBy(() -> StackBackend.requireDocker(true, () -> null));
    }

    @Test
    void containersWithoutTheTestcontainersJarsSayWhatToAddBeforeProbingDocker() {
        assertThatIllegalStateException()
                .isThrownBy(() -> StackBackend.requireDocker(false, () -> fail("Docker probed without Testcontainers")))
                .withMessageStartingWith("-Dstowage.stack=containers needs the Testcontainers jars")
                .withMessageContaining("libs/embedded-stack/README.md");
        assertThat(StackBackend.testcontainersPresent()).as("optional dependency of this module").isTrue();
    }

    @Test
    void aRunningStacksFileIsUsedWithoutAskingForDocker(@TempDir Path dir) throws Exception {
        new StackEndpoints("127.0.0.1:1111", "http://127.0.0.1:1", "us-east-1", "a", "s", "stowage-primary",
                "stowage-replica", "jdbc:postgresql://127.0.0.1:2/stowage", "postgresql://127.0.0.1:2/stowage",
                "stowage", "p").writeTo(dir.resolve("stack.json"));

        assertThat(SharedStack.resolve(dir.resolve("stack.json").toString(), null, StackBackend.CONTAINERS)
                .kafkaBootstrapServers()).isEqualTo("127.0.0.1:1111");
    }

    /** Runs Testcontainers' real Docker lookup; only meaningful on a machine without Docker, such as this one. */
    @Test
    void onAMachineWithoutDockerTheSharedContainersStackFailsFastBeforeStartingAnything() {
        assumeTrue(System.getenv("DOCKER_HOST") == null && !Files.exists(Path.of("/var/run/docker.sock")),
                "a Docker engine may be reachable here");
        long started = System.nanoTime();

        assertThatIllegalStateException().isThrownBy(() -> SharedStack.resolve(null, null, StackBackend.CONTAINERS))
                .withMessageStartingWith(NO_DOCKER)
                .withMessageContaining("DOCKER_HOST unset; /var/run/docker.sock missing");
        assertThat((System.nanoTime() - started) / 1_000_000_000).as("seconds to fail").isLessThan(30);
    }
}
