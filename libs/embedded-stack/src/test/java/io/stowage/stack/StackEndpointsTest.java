package io.stowage.stack;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;

class StackEndpointsTest {
    private final StackEndpoints endpoints = new StackEndpoints("127.0.0.1:9092", "http://127.0.0.1:9000", "us-east-1",
            "access", "s3-secret", "stowage-primary", "stowage-replica", "jdbc:postgresql://127.0.0.1:5432/stowage",
            "postgresql://127.0.0.1:5432/stowage", "stowage", "pg-secret");

    @Test
    void quarkusConfigNamesBothStoresKafkaAndTheReactiveDatasource() {
        assertThat(endpoints.quarkusConfig())
                .containsEntry("kafka.bootstrap.servers", "127.0.0.1:9092")
                .containsEntry("stowage.store.primary.endpoint", "http://127.0.0.1:9000")
                .containsEntry("stowage.store.primary.region", "us-east-1")
                .containsEntry("stowage.store.primary.bucket", "stowage-primary")
                .containsEntry("stowage.store.primary.access-key-id", "access")
                .containsEntry("stowage.store.primary.secret-access-key", "s3-secret")
                .containsEntry("stowage.store.replica.endpoint", "http://127.0.0.1:9000")
                .containsEntry("stowage.store.replica.bucket", "stowage-replica")
                .containsEntry("stowage.store.replica.secret-access-key", "s3-secret")
                .containsEntry("quarkus.datasource.reactive.url", "postgresql://127.0.0.1:5432/stowage")
                .containsEntry("quarkus.datasource.username", "stowage")
                .containsEntry("quarkus.datasource.password", "pg-secret")
                .hasSize(14);
    }

    @Test
    void environmentUsesTheQuarkusNamingRule() {
        assertThat(endpoints.environment())
                .containsEntry("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092")
                .containsEntry("STOWAGE_STORE_PRIMARY_ACCESS_KEY_ID", "access")
                .containsEntry("STOWAGE_STORE_REPLICA_BUCKET", "stowage-replica")
                .containsEntry("QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://127.0.0.1:5432/stowage")
                .containsEntry("QUARKUS_DATASOURCE_PASSWORD", "pg-secret")
                .hasSize(14);
    }

    @Test
    void fileRoundTripKeepsEveryValueAndIsOwnerOnly(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("nested/stack.json");
        endpoints.writeTo(file);
        endpoints.writeTo(file);

        assertThat(StackEndpoints.readFrom(file)).isEqualTo(endpoints);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.list(file.getParent())).containsExactly(file);
    }

    @Test
    void toStringHidesBothSecrets() {
        assertThat(endpoints.toString()).contains("127.0.0.1:9092", "http://127.0.0.1:9000")
                .doesNotContain("s3-secret", "pg-secret", endpoints.s3AccessKey());
    }
}
