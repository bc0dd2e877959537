package io.stowage.ledger.domain;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

class EventChainTest {

    static StoredEvent row(String eventId, String payload) {
        return new StoredEvent(eventId, "shard.built", "io.stowage.shard.built.v1", "dataset/speech/r1", "c-1", null,
                Events.T0, Events.T0, 3, 41, payload, false, null);
    }

    @Test
    void canonicalJsonSortsKeysAtEveryDepthWithoutWhitespaceAndKeepsNulls() {
        String payload = "{ \"z\": [ {\"b\": 1, \"a\": 2.50} ], \"meta\": {\"eventId\": \"e-1\", \"assetId\": \"x\"} }";

        assertThat(EventChain.canonicalJson(7, row("e-1", payload))).isEqualTo(
                "{\"assetId\":\"dataset/speech/r1\",\"causationId\":null,\"correlationId\":\"c-1\",\"deadLetter\":false,"
                        + "\"eventId\":\"e-1\",\"kafkaOffset\":41,\"kafkaPartition\":3,"
                        + "\"payloadJson\":{\"meta\":{\"assetId\":\"x\",\"eventId\":\"e-1\"},\"z\":[{\"a\":2.50,\"b\":1}]},"
                        + "\"payloadText\":null,\"reason\":null,\"seq\":7,\"topic\":\"shard.built\","
                        + "\"type\":\"io.stowage.shard.built.v1\"}");
    }

    @Test
    void keysAreOrderedByUtf16CodeUnitsInsideArraysAndEmptyContainersAndDecimalsKeepTheirScale() {
        String payload = "[{\"z\":{},\"é\":[],\"B\":null,\"a\":[{\"y\":1e2,\"x\":-0.10}],\"\uD83D\uDE00\":1,\"\uFFFF\":2}]";

        assertThat(EventChain.canonicalJson(1, row("e-1", payload))).contains(
                "\"payloadJson\":[{\"B\":null,\"a\":[{\"x\":-0.10,\"y\":100}],\"z\":{},\"é\":[],"
                        + "\"\uD83D\uDE00\":1,\"\uFFFF\":2}],\"payloadText\":null");
    }

    @Test
    void payloadThatIsNotOneJsonDocumentIsChainedVerbatim() {
        assertThat(EventChain.canonicalJson(1, row("e-1", "{\"meta\": not json")))
                .contains("\"payloadJson\":null,\"payloadText\":\"{\\\"meta\\\": not json\"");
        assertThat(EventChain.canonicalJson(1, row("e-1", "{\"a\":1} trailing")))
                .contains("\"payloadText\":\"{\\\"a\\\":1} trailing\"");
        assertThat(EventChain.canonicalJson(1, row("e-1", "{\"a\":1,\"a\":2}")))
                .contains("\"payloadText\":\"{\\\"a\\\":1,\\\"a\\\":2}\"");
    }

    @Test
    void linkIsSha256OfPreviousNewlineCanonicalJson() throws Exception {
        StoredEvent row = row("e-1", "{\"b\":1,\"a\":\"é\"}");
        String previous = "f".repeat(64);
        byte[] expected = MessageDigest.getInstance("SHA-256").digest(
                (previous + "\n" + EventChain.canonicalJson(2, row)).getBytes(StandardCharsets.UTF_8));

        assertThat(EventChain.link(previous, 2, row)).isEqualTo(HexFormat.of().formatHex(expected)).hasSize(64);
        assertThat(EventChain.link(previous, 2, row("e-1", "{\"a\":\"é\",  \"b\":1}")))
                .as("whitespace and key order are not content").isEqualTo(EventChain.link(previous, 2, row));
        assertThat(EventChain.link(previous, 2, row("e-1", "{\"b\":2,\"a\":\"é\"}"))).isNotEqualTo(EventChain.link(previous, 2, row));
        assertThat(EventChain.link(EventChain.GENESIS, 2, row)).isNotEqualTo(EventChain.link(previous, 2, row));
        assertThat(EventChain.link(previous, 3, row)).isNotEqualTo(EventChain.link(previous, 2, row));
        assertThat(EventChain.GENESIS).isEqualTo("0".repeat(64));
    }
}
