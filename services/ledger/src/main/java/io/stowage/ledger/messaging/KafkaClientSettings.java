package io.stowage.ledger.messaging;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The connection settings the ledger's own Kafka clients ({@link ConsumerLag}'s admin client, {@link TopicSnapshot}'s
 * consumer) share with its channels: {@code kafka.bootstrap.servers} and, when set (a broker with SCRAM users and ACLs,
 * env {@code KAFKA_SECURITY_PROTOCOL}, {@code KAFKA_SASL_MECHANISM}, {@code KAFKA_SASL_JAAS_CONFIG}), the login.
 */
@ApplicationScoped
public class KafkaClientSettings {
    private final Map<String, Object> client;

    @Inject
    public KafkaClientSettings(@ConfigProperty(name = "kafka.bootstrap.servers") String bootstrapServers,
                               @ConfigProperty(name = "kafka.security.protocol") Optional<String> protocol,
                               @ConfigProperty(name = "kafka.sasl.mechanism") Optional<String> mechanism,
                               @ConfigProperty(name = "kafka.sasl.jaas.config") Optional<String> jaas) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("bootstrap.servers", bootstrapServers);
        protocol.ifPresent(v -> settings.put("security.protocol", v));
        mechanism.ifPresent(v -> settings.put("sasl.mechanism", v));
        jaas.ifPresent(v -> settings.put("sasl.jaas.config", v));
        this.client = Map.copyOf(settings);
    }

    /** @return a new mutable map of the settings, to add a client's own to */
    public Map<String, Object> with(Map<String, Object> own) {
        Map<String, Object> config = new HashMap<>(client);
        config.putAll(own);
        return config;
    }
}
