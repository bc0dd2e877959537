package io.stowage.stack;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class SharedStackTest {
    private static StackEndpoints endpoints(String kafka) {
        return new StackEndpoints(kafka, "http://127.0.0.1:1", "us-east-1", "a", "s", "stowage-primary",
                "stowage-replica", "jdbc:postgresql://127.0.0.1:2/stowage", "postgresql://127.0.0.1:2/stowage", "stowage", "p");
    }

    @Test
    void aRunningStacksFileIsUsedInsteadOfStartingOneAndWinsOverTheStartedOne(@TempDir Path dir) throws Exception {
        endpoints("127.0.0.1:1111").writeTo(dir.resolve("external.json"));
        endpoints("127.0.0.1:2222").writeTo(dir.resolve("started.json"));

        assertThat(SharedStack.resolve(dir.resolve("external.json").toString(), dir.resolve("started.json").toString(),
                StackBackend.EMBEDDED)
                .kafkaBootstrapServers()).isEqualTo("127.0.0.1:1111");
        assertThat(SharedStack.resolve(" ", dir.resolve("started.json").toString(), StackBackend.EMBEDDED)
                .kafkaBootstrapServers()).isEqualTo("127.0.0.1:2222");
    }
}
