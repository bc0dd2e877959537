package io.stowage.cli.platform;

import io.stowage.stack.StackEndpoints;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Each service started by the CLI receives only the credentials its job needs. */
class ServiceCredentialsTest {
    private static final StackEndpoints STACK = new StackEndpoints("127.0.0.1:9092", "http://127.0.0.1:9000", "us-east-1",
            "ACCESS-canary", "SECRET-canary", "stowage-primary", "stowage-replica", "jdbc:postgresql://127.0.0.1:5432/stowage",
            "postgresql://127.0.0.1:5432/stowage", "stowage", "PG-canary");

    @Test
    void theUploaderTheVerifierTheGateAndRetentionsDeleterGetTheStoreButNotTheDatabase() {
        for (String service : new String[] {"uploader", "verifier", "gatekeeper", "provider-adapter"}) {
            Map<String, String> env = ServiceCredentials.narrow(service, STACK.environment());

            assertThat(env).containsEntry("STOWAGE_STORE_PRIMARY_ACCESS_KEY_ID", "ACCESS-canary")
                    .containsEntry("STOWAGE_STORE_PRIMARY_SECRET_ACCESS_KEY", "SECRET-canary")
                    .containsEntry("STOWAGE_STORE_REPLICA_SECRET_ACCESS_KEY", "SECRET-canary")
                    .containsEntry("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092");
            assertThat(env.values()).doesNotContain("PG-canary");
            assertThat(env.keySet()).noneMatch(k -> k.startsWith("QUARKUS_DATASOURCE_"));
        }
    }

    @Test
    void theLedgerGetsTheDatabaseButNoStoreKey() {
        Map<String, String> env = ServiceCredentials.narrow("ledger", STACK.environment());

        assertThat(env).containsEntry("QUARKUS_DATASOURCE_PASSWORD", "PG-canary")
                .containsEntry("QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://127.0.0.1:5432/stowage");
        assertThat(env.values()).doesNotContain("ACCESS-canary", "SECRET-canary");
    }

    @Test
    void theShardBuilderGetsNeitherStoreNorDatabaseCredentials() {
        for (String service : new String[] {"shard-builder"}) {
            Map<String, String> env = ServiceCredentials.narrow(service, STACK.environment());

            assertThat(env.values()).as(service).doesNotContain("ACCESS-canary", "SECRET-canary", "PG-canary");
            assertThat(env.keySet()).as(service).containsExactly("KAFKA_BOOTSTRAP_SERVERS");
        }
    }
}
