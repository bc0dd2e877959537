package io.stowage.store;

import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;

/** A store's settings print without their credentials. */
class StoreConfigTest {
    @Test
    void toStringMasksTheAccessKeyToItsLastTwoCharactersAndHidesTheSecret() {
        StoreConfig config = new StoreConfig("primary", URI.create("http://127.0.0.1:9000"), "us-east-1", "stowage-primary",
                "CANARY-ACCESS-KEY-42", "CANARY-SECRET-KEY");
        assertThat(config.toString()).contains("primary", "http://127.0.0.1:9000", "stowage-primary", "accessKeyId=****42",
                "secretAccessKey=****").doesNotContain("CANARY");
    }

    @Test
    void shortValuesAreMaskedEntirely() {
        assertThat(StoreConfig.masked("abcdefgh")).isEqualTo("****");
        assertThat(StoreConfig.masked(null)).isEqualTo("****");
        assertThat(StoreConfig.masked("abcdefghi")).isEqualTo("****hi");
    }
}
