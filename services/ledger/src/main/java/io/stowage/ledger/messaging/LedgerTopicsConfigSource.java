package io.stowage.ledger.messaging;

import io.stowage.events.Topics;
import org.eclipse.microprofile.config.spi.ConfigSource;

import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Derives the topic lists of the two channels from {@link Topics#ALL}, so that a topic added to the
 * contract is consumed without a configuration change: {@code ledger-events} reads every audit topic,
 * {@code ledger-dead-letters} their {@code .dlq} topics. Ordinal 50: application.properties overrides it.
 */
public class LedgerTopicsConfigSource implements ConfigSource {
    private static final Map<String, String> PROPERTIES = Map.of(
            "mp.messaging.incoming.ledger-events.topics", String.join(",", Topics.ALL),
            "mp.messaging.incoming.ledger-dead-letters.topics",
            Topics.ALL.stream().map(Topics::dlq).collect(Collectors.joining(",")));

    @Override
    public Map<String, String> getProperties() {
        return PROPERTIES;
    }

    @Override
    public Set<String> getPropertyNames() {
        return PROPERTIES.keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return PROPERTIES.get(propertyName);
    }

    @Override
    public String getName() {
        return "stowage-ledger-topics";
    }

    @Override
    public int getOrdinal() {
        return 50;
    }
}
